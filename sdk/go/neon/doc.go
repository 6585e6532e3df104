// Pulumi resources for Neon's serverless Postgres management API: branches, computes, roles, databases and API keys, a role's password and the project list. Served by the native plugin pulumi-resource-neon (every Pulumi language, through the generated SDKs or YAML) and, for Node.js programs, as dynamic resources by the npm package pulumi-neon-dynamic.
package neon
