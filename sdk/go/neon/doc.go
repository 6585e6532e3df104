// Pulumi resources for Neon's serverless Postgres management API: branches, computes, roles, databases and API keys, a role's password and the project list. Implemented as Node.js dynamic resources by the npm package pulumi-neon-dynamic.
package neon
