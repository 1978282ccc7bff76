import { describe, expect, it } from 'vitest';
import { composeModules } from '../src/services.js';
import { defineModule } from '../src/platform/module.js';
import { allModules } from '../src/modules/index.js';
import type { Services } from '../src/platform/services.js';

/** The composition root builds modules from their declared needs, whatever order they are listed in. */
describe('composeModules', () => {
  const platform = { config: { name: 'platform' }, clock: { name: 'clock' } } as unknown as Partial<Services>;

  it('builds a module after the modules it needs, and passes it exactly what it names', async () => {
    const seen: string[][] = [];
    const later = defineModule({
      name: 'later',
      needs: ['support', 'clock'],
      provides: ['reports'],
      create: (deps) => {
        seen.push(Object.keys(deps).sort());
        return { reports: { from: deps.support } as unknown as Services['reports'] };
      },
      operations: [],
    });
    const first = defineModule({
      name: 'first',
      needs: ['config'],
      provides: ['support'],
      create: (deps) => {
        seen.push(Object.keys(deps));
        return { support: { made: true } as unknown as Services['support'] };
      },
      operations: [],
    });
    const services = await composeModules([later, first], platform);
    expect(seen).toEqual([['config'], ['clock', 'support']]);
    expect(services.reports).toEqual({ from: { made: true } });
    expect(services.config).toBe(platform.config);
  });

  it('refuses to start when a need is provided by nobody, naming the module and the need', async () => {
    const m = defineModule({ name: 'orphan', needs: ['vtu'], provides: [], operations: [] });
    await expect(composeModules([m], platform)).rejects.toThrow('modules cannot be composed: orphan needs vtu');
  });

  it('refuses modules that need each other', async () => {
    const a = defineModule({
      name: 'a',
      needs: ['support'],
      provides: ['reports'],
      create: () => ({ reports: {} as never }),
      operations: [],
    });
    const b = defineModule({
      name: 'b',
      needs: ['reports'],
      provides: ['support'],
      create: () => ({ support: {} as never }),
      operations: [],
    });
    await expect(composeModules([a, b], platform)).rejects.toThrow('a needs support; b needs reports');
  });

  it('refuses a module that does not provide what it declared', async () => {
    const m = defineModule({ name: 'liar', provides: ['support'], create: () => ({}) as never, operations: [] });
    await expect(composeModules([m], platform)).rejects.toThrow('module liar did not provide support');
  });

  it('each member of the container is provided by one module at most', () => {
    const provided = allModules.flatMap((m) => m.provides);
    expect(provided.filter((n, i) => provided.indexOf(n) !== i)).toEqual([]);
  });
});
