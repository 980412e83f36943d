import { describe, expect, test } from 'vitest'

import { stockpileInventoryCsv } from './stockpile-inventory.server.ts'

const HOSTILE = ['=HYPERLINK("http://x.test/a","Click")', "+cmd|' /C calc'!A0", '@SUM(A1:A9)', '-2+3']

describe('stockpiles.csv', () => {
  test('a name or material that starts a formula is written with an apostrophe; negative volumes stay numbers', () => {
    const rows = HOSTILE.map((name, i) => ({
      name,
      material: HOSTILE[(i + 1) % HOSTILE.length]!,
      base: '',
      volumeM3: -12.5,
      densityTPerM3: null,
      tonnes: null,
      surveyDate: '2026-11-20',
    }))
    const csv = stockpileInventoryCsv({ rows, totals: [], project: {} } as unknown as Parameters<
      typeof stockpileInventoryCsv
    >[0])
    const lines = csv.trim().split('\n').slice(1)
    expect(lines).toHaveLength(HOSTILE.length)
    for (const line of lines) expect(line).toMatch(/^"?'[=+@-].*,"?'[=+@-].*,,-12\.5,,,2026-11-20$/)
    expect(csv).toContain(`"'=HYPERLINK(""http://x.test/a"",""Click"")"`)
    expect(csv).toContain("'@SUM(A1:A9)")
    expect(csv).toContain("'-2+3")
  })
})
