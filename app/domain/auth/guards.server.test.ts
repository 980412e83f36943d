import { describe, expect, it } from 'vitest'

import { safeRedirect } from './guards.server.ts'

describe('safeRedirect', () => {
  it('keeps paths on our own site, with their query and hash', () => {
    expect(safeRedirect('/flight-planner?projectId=4')).toBe('/flight-planner?projectId=4')
    expect(safeRedirect('/dashboard?tab=projects#top')).toBe('/dashboard?tab=projects#top')
  })

  it('never returns anything a browser reads as another origin', () => {
    const base = 'https://kestrel.example'
    for (const trick of [
      '/..//evil.example',
      '/./..//evil.example',
      '/%2e%2e//evil.example',
      '/a/..//evil.example',
      '/\\evil.example',
      '/%5c%5cevil.example',
    ]) {
      const target = safeRedirect(trick)
      expect(new URL(target, base).origin, trick).toBe(base)
      expect(target.startsWith('//'), trick).toBe(false)
    }
  })

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab that browsers strip', '/\t/evil.example'],
    ['a newline that browsers strip', '/\n/evil.example'],
    ['a dot segment that leaves two slashes', '/..//evil.example'],
    ['an encoded dot segment', '/.%2e//evil.example'],
    ['several dot segments', '/a/../..//evil.example/x'],
    ['an encoded slash', '/%2F/evil.example'],
    ['an encoded backslash', '/%5C/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['not a string', 42],
    ['nothing', undefined],
  ])('falls back to the dashboard for %s', (_label, target) => {
    expect(safeRedirect(target)).toBe('/dashboard')
  })
})
