import { describe, expect, test, vi } from 'vitest'

import { assertOneCopyEach, registerStatefulModule, statefulModuleLoads } from './stateful-modules.server.ts'

describe('stateful modules', () => {
  test('one load each passes; a module loaded a second time (another copy of it) is named', async () => {
    await import('#app/lib/mail/mail.server.ts')
    expect(statefulModuleLoads().mail).toBe(1)
    expect(() => assertOneCopyEach()).not.toThrow()

    // A second copy of the module, as a second bundle would load it.
    vi.resetModules()
    await import('#app/lib/mail/mail.server.ts')
    expect(statefulModuleLoads().mail).toBe(2)
    expect(() => assertOneCopyEach()).toThrow(
      'Loaded more than once in this process (each copy would keep its own state): mail',
    )
  })

  test('the count is kept on globalThis, so every copy of this registry sees it', () => {
    registerStatefulModule('example/twice')
    const registry = (globalThis as unknown as Record<symbol, Map<string, number>>)[
      Symbol.for('kestrel.statefulModules')
    ]!
    expect(registry.get('example/twice')).toBe(1)
  })
})
