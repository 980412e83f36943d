import { describe, expect, it } from 'vitest'

import { statusText } from './processing-panel.tsx'

describe('statusText', () => {
  it('gives a running job its percentage and an ended one its plain label', () => {
    expect(statusText({ status: 'processing', progressPercent: 62 })).toMatch(/62\s%$/)
    // A job cancelled at 62 % reads "Cancelled", not "Cancelled — 62 %".
    expect(statusText({ status: 'canceled', progressPercent: 62 })).toBe('Cancelled')
    expect(statusText({ status: 'failed', progressPercent: 40 })).not.toContain('%')
  })
})
