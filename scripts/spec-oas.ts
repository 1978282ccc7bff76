// `npm run spec:oas`: Spectral's `spectral:oas` ruleset over the OpenAPI document the service serves (built from the
// operation registry and the public endpoints, as at /api/openapi.json). Any error, warning, info or hint fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { loadConfig } from '../src/config.js';
import { buildOpenApi } from '../src/http/openapi.js';
import { allOperations } from '../src/modules/index.js';

const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' });
const document = buildOpenApi(allOperations, config);
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'openapi.json');
fs.writeFileSync(file, JSON.stringify(document, null, 2));
console.log(
  `OpenAPI document: ${Object.keys(document.paths).length} paths, ${Object.keys(document.components.schemas).length} schemas, ${Math.round(fs.statSync(file).size / 1024)} KB`,
);
const bin = path.resolve('node_modules/.bin/spectral');
const r = spawnSync(bin, ['lint', file, '--ruleset', '.spectral.yaml', '--fail-severity', 'hint'], { stdio: 'inherit' });
process.exit(r.status ?? 1);
