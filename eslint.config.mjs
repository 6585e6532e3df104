import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * provider/ has a folder per resource over a shared part (provider/shared): a resource folder uses shared/ and its own
 * files, never another resource's (what two resources need belongs in shared/), and shared/ uses no resource folder.
 */
const RESOURCE_FOLDERS = ["compute", "api-key", "projects", "branch", "role", "database", "connection"];
const folderRules = [...RESOURCE_FOLDERS, "shared"].map((folder) => ({
  files: [`provider/${folder}/**/*.ts`],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: RESOURCE_FOLDERS.filter((other) => other !== folder).map((other) => ({
          group: [`../${other}`, `../${other}/*`],
          message: `provider/${folder} may not use provider/${other}'s files: move what both need to provider/shared.`,
        })),
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: ["dist/**", "node_modules/**", "sdk/**", "coverage/**", "examples/**/node_modules/**", "bench/results/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-require-imports": "off",
    },
  },
  ...folderRules,
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: {
      globals: {
        require: "readonly",
        module: "writable",
        process: "readonly",
        __dirname: "readonly",
        console: "readonly",
      },
    },
  },
);
