/**
 * Import rules of src/ and of the web app in web/src (docs/architecture.md), checked in CI by `npm run lint:deps`. Type-only imports count: a
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
    // The layers, each importing only those beneath it (docs/architecture.md "Layers"): kernel; db; lib; the
    // configuration; ledger, jobs and providers; the platform (module system, operation registry, the container's
    // type); the modules; the transport (http); the sandbox; the composition root (services.ts) and main.ts.
    {
      name: 'db-is-the-ground-floor',
      severity: 'error',
      comment: 'src/db (connections, parts, the ambient transaction, the request scope, migrations) builds on the kernel alone.',
      from: { path: '^src/db/' },
      to: { path: '^src/', pathNot: '^src/(db|kernel)/' },
    },
    {
      name: 'lib-reads-no-configuration',
      severity: 'error',
      comment: 'lib/ helpers are handed the values they need: they import the kernel and db/ only.',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/(lib|db|kernel)/' },
    },
    {
      name: 'configuration-knows-no-module',
      severity: 'error',
      comment: 'config*.ts parse the environment with lib/ and the kernel; a module checks its own settings (ModuleDef.check).',
      from: { path: '^src/config[^/]*\\.ts$' },
      to: { path: '^src/', pathNot: ['^src/(lib|kernel)/', '^src/config[^/]*\\.ts$'] },
    },
    {
      name: 'foundations-know-no-platform',
      severity: 'error',
      comment: 'The kernel, db, lib, configuration, ledger, job queue and providers sit under the module system and the container.',
      from: { path: '^src/(kernel|db|lib|ledger|jobs|providers)/|^src/config[^/]*\\.ts$' },
      to: { path: '^src/(platform|modules|http|sandbox)/|^src/(services|main)\\.ts$' },
    },
    {
      name: 'platform-knows-no-module',
      severity: 'error',
      comment: 'The platform declares what modules fill in (Services by declaration merging); it imports no module, transport or sandbox.',
      from: { path: '^src/platform/' },
      to: { path: '^src/(modules|http|sandbox)/|^src/(services|main)\\.ts$' },
    },
    {
      name: 'modules-know-no-transport',
      severity: 'error',
      comment: 'A module answers with kernel errors and declares its operations on the platform; only http/ turns them into routes.',
      from: { path: '^src/modules/' },
      to: { path: '^src/(http|sandbox)/|^src/(services|main)\\.ts$' },
    },
    {
      name: 'transport-is-handed-the-service',
      severity: 'error',
      comment: 'http/ serves the service the composition root built (buildHttpApp(services, ...)); it never composes it.',
      from: { path: '^src/http/' },
      to: { path: '^src/(services|main)\\.ts$' },
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
    // The web app (web/src): features are islands; what they share lives in components/, api/ and app/.
    {
      name: 'web-features-are-islands',
      severity: 'error',
      comment:
        "A feature imports only components/, api/, app/ and its own files: another feature's internals are not its to use (move what both need to components/ or api/).",
      from: { path: '^web/src/features/([^/]+)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^web/src/', pathNot: ['^web/src/features/$1/', '^web/src/(components|api|app)/'] },
    },
    {
      name: 'web-components-are-shared',
      severity: 'error',
      comment: 'Shared components know no feature: they use api/, app/ and each other.',
      from: { path: '^web/src/components/' },
      to: { path: '^web/src/features/' },
    },
    {
      name: 'web-api-knows-no-screens',
      severity: 'error',
      comment: 'api/ (the client, the query factories, the shared input schemas) imports no screen code.',
      from: { path: '^web/src/api/' },
      to: { path: '^web/src/(features|components|app)/' },
    },
    {
      name: 'web-console-uses-the-shared-foundation',
      severity: 'error',
      comment:
        'The operator console (web/src/console) builds on components/, api/ and app/ and its own files: never on a customer feature.',
      from: { path: '^web/src/console/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^web/src/', pathNot: ['^web/src/console/', '^web/src/(components|api|app)/'] },
    },
    {
      name: 'web-customer-code-knows-no-console',
      severity: 'error',
      comment:
        "The customer app never imports the console: only the router mounts it (lazily, /console), so the console's code stays in its own chunks.",
      from: { path: '^web/src/', pathNot: ['^web/src/console/', '^web/src/app/router\\.tsx$'] },
      to: { path: '^web/src/console/' },
    },
    {
      name: 'web-uses-the-service-only-through-shared-code',
      severity: 'error',
      comment:
        "The app reaches the service's code only for what is written once for both sides: the kernel's pure helpers, the modules' input schemas (inputs.ts) and the kinds' input schemas and names (kinds/<kind>/inputs.ts, names.ts); everything else goes through the API.",
      from: { path: '^web/' },
      to: {
        path: '^src/',
        pathNot: ['^src/kernel/', '^src/modules/[^/]+/inputs\\.ts$', '^src/modules/vtu/kinds/[^/]+/(inputs|names)\\.ts$'],
      },
    },
    // A kind's app part (web/src/features/buy/kinds/<kind>: web/src/app/kinds.ts) is the buy feature's code for that kind.
    {
      name: 'web-kind-parts-keep-to-their-kind',
      severity: 'error',
      comment:
        "A kind's folder of the buy feature (features/buy/kinds/<kind>) uses its own kind's inputs.ts and names.ts of the service and no other kind's folder on either side.",
      from: { path: '^web/src/features/buy/kinds/([^/]+)/' },
      to: {
        path: '^src/modules/vtu/kinds/|^web/src/features/buy/kinds/',
        pathNot: ['^src/modules/vtu/kinds/$1/(inputs|names)\\.ts$', '^web/src/features/buy/kinds/$1/'],
      },
    },
    {
      name: 'web-kind-tabs-and-strings-are-plain-data',
      severity: 'error',
      comment:
        "A kind's tab.ts and strings-<lang>.ts are read by app/kind-tabs.ts (the first screens) and locales/kinds-<lang>.ts: they import the contract's types (app/kinds.ts) and their English strings' type only.",
      from: { path: '^web/src/features/buy/kinds/[^/]+/(tab|strings-[a-z]+)\\.ts$' },
      to: { pathNot: ['^web/src/app/kinds\\.ts$', '^web/src/features/buy/kinds/[^/]+/strings-en\\.ts$'] },
    },
    {
      name: 'the-service-knows-no-app',
      severity: 'error',
      comment: "The service's code (src/) never imports the app (web/): the web app's build alone reads web/.",
      from: { path: '^src/' },
      to: { path: '^web/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
