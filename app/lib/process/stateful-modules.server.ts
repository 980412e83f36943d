/**
 * Modules that keep state in memory (the viewing-copy job runner, mail in flight, the limits)
 * must exist once in the process: a second copy (a bundle loading its own) keeps its state
 * apart, so work queued in one is never run by the other. Each registers here when it loads
 * (the count lives on globalThis, shared by every copy); server.ts refuses to start when one
 * was loaded twice.
 */
const KEY = Symbol.for('kestrel.statefulModules')

function registry(): Map<string, number> {
  const g = globalThis as unknown as Record<symbol, Map<string, number> | undefined>
  g[KEY] ??= new Map()
  return g[KEY]
}

/** Called once at the top of a module that keeps state. */
export function registerStatefulModule(name: string) {
  registry().set(name, (registry().get(name) ?? 0) + 1)
}

/** How many times each stateful module has been loaded in this process. */
export function statefulModuleLoads(): Record<string, number> {
  return Object.fromEntries(registry())
}

/** Throws, naming them, when a stateful module has been loaded more than once. */
export function assertOneCopyEach() {
  const twice = [...registry()].filter(([, loads]) => loads > 1).map(([name]) => name)
  if (twice.length) {
    throw new Error(
      `Loaded more than once in this process (each copy would keep its own state): ${twice.join(', ')}`,
    )
  }
}
