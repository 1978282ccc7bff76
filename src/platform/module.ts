import type { Config } from '../config.js';
import type { ServiceName, Services } from './services.js';
import type { AnyOperation } from './operation.js';

/** Registers a module's jobs and schedules on the queue, with what the module needs and provides. */
export type JobRegistrar<S extends ServiceName = ServiceName> = (services: Pick<Services, S>) => void;
/** Subscribes a module to domain events (the event bus is among its needs). */
export type SubscriberRegistrar<S extends ServiceName = ServiceName> = (services: Pick<Services, S>) => void;

/**
 * A module: its name, what it needs from the container (adapters, the platform, other modules' APIs) and what it
 * provides to it, the factory that builds the latter from the former, its operations (each carrying the services
 * it needs), and what the composition root registers for it besides: job registrars and event subscribers. The
 * module's entry file (`modules/<area>/index.ts`) exports it; services.ts wires them all.
 */
export interface ModuleDef<N extends ServiceName = ServiceName, P extends ServiceName = ServiceName> {
  name: string;
  /**
   * What its factory, jobs and subscribers use: adapters, the platform, other modules' APIs. Its operations
   * name their own needs (operationsOf), which may be any module's API: they run once everything is built.
   */
  needs: readonly N[];
  /** The container members its factory builds. */
  provides: readonly P[];
  /**
   * What the module refuses in the configuration (a setting only it understands), or null: checked before anything is
   * opened or built, so a start it refuses stops like a missing setting does (exit 78, the setting named).
   */
  check?: (config: Config) => string | null;
  /** Builds what the module provides from exactly what it needs (the composition root passes nothing else). */
  create?: (deps: Pick<Services, N>) => Pick<Services, P> | Promise<Pick<Services, P>>;
  operations: AnyOperation[];
  jobs?: JobRegistrar<N | P>[];
  /** Its subscriptions to other modules' events, made once every module is built. */
  subscribers?: SubscriberRegistrar<N | P>[];
}

export type AnyModule = ModuleDef<ServiceName, ServiceName>;

/** What a module's jobs and subscribers see of the container: its needs and what it provides. */
export function moduleScope(m: AnyModule, services: Services): Pick<Services, ServiceName> {
  return Object.fromEntries([...m.needs, ...m.provides].map((n) => [n, services[n]])) as Pick<Services, ServiceName>;
}

/** Declares a module; its factory is type-checked against its needs and what it provides. */
export function defineModule<const N extends ServiceName = never, const P extends ServiceName = never>(
  m: Omit<ModuleDef<N, P>, 'needs' | 'provides'> & { needs?: readonly N[]; provides?: readonly P[] },
): AnyModule {
  return { needs: [], provides: [], ...m } as unknown as AnyModule;
}
