/**
 * Import rules of src/ (docs/architecture.md), checked in CI by `npm run lint:deps`. Type-only imports count: a
 * cycle through types is still a cycle a reader has to untangle.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, through values or types.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kernel-imports-nothing',
      severity: 'error',
      comment: 'src/kernel (errors, actor, paging, shared inputs, clock, ids, money, phone) depends on packages only.',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/kernel/' },
    },
    {
      name: 'lower-layers-stay-low',
      severity: 'error',
      comment: 'The kernel, lib, ledger and providers know nothing of modules, transport, jobs, sandbox or the container.',
      from: { path: '^src/(kernel|lib|ledger|providers)/' },
      to: { path: '^src/(modules|http|jobs|sandbox)/|^src/(services|container)\\.ts$' },
    },
    {
      name: 'domain-code-knows-no-http',
      severity: 'error',
      comment: "A module's domain code answers with kernel errors; only its entry file and operation declarations touch http/.",
      from: { path: '^src/modules/', pathNot: '(operations|index)\\.ts$' },
      to: { path: '^src/http/' },
    },
    {
      name: 'modules-meet-through-their-api',
      severity: 'error',
      comment: "A module uses another module only through that module's api.ts (what it offers); the rest is private.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/api\\.ts$'] },
    },
    {
      name: 'fastify-only-in-the-transport',
      severity: 'error',
      comment: 'Only http/ (and the sandbox, whose simulators are HTTP servers the composition root mounts) imports Fastify.',
      from: { path: '^src/', pathNot: '^src/(http|sandbox)/' },
      to: { path: '^node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'sandbox-only-from-the-composition-root',
      severity: 'error',
      comment:
        'Simulators are wired in by the composition root (services.ts) only: the adapters it builds and the routes it hands the app.',
      from: { path: '^src/', pathNot: '^src/(sandbox/|services\\.ts$)' },
      to: { path: '^src/sandbox/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
