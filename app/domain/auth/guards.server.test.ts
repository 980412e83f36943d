import { describe, expect, it } from 'vitest'
import { safeRedirect } from './guards.server.ts'

describe('safeRedirect', () => {
  it('keeps paths on our own site, with their query and hash', () => {
    expect(safeRedirect('/flight-planner?projectId=4')).toBe('/flight-planner?projectId=4')
    expect(safeRedirect('/dashboard?tab=projects#top')).toBe('/dashboard?tab=projects#top')
  })

  it.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab that browsers strip', '/\t/evil.example'],
    ['a newline that browsers strip', '/\n/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['not a string', 42],
    ['nothing', undefined],
  ])('falls back to the dashboard for %s', (_label, target) => {
    expect(safeRedirect(target)).toBe('/dashboard')
  })
})
