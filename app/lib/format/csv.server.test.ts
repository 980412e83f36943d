import { describe, expect, test } from 'vitest'

import { csvStream, csvText, escapeFormula } from './csv.server.ts'

const HOSTILE = [
  '=HYPERLINK("http://x.test","y")',
  "+cmd|' /C calc'!A0",
  '@SUM(A1:A2)',
  '-2+3',
  '\tx',
  '\rx',
  '＝1+1',
]

describe('one CSV helper', () => {
  test('a text field that starts a formula gets an apostrophe; numbers, negative ones too, stay numbers', () => {
    const text = csvText(
      ['name', 'net_m3'],
      HOSTILE.map((name, i) => [name, -i - 0.5]),
    )
    const lines = text.trim().split('\n').slice(1)
    expect(lines.every((line) => /^"?'/.test(line))).toBe(true)
    expect(text).toContain(`"'=HYPERLINK(""http://x.test"",""y"")",-0.5`)
    expect(text).toContain("'-2+3,-3.5")
    expect(text).toContain("'@SUM(A1:A2),-2.5")
  })

  test('the streamed CSV escapes the same way', async () => {
    async function* rows() {
      for (const name of HOSTILE) yield { name, n: -1 }
    }
    const text = await new Response(csvStream(['name', 'n'], rows())).text()
    expect(text).toBe(
      csvText(
        ['name', 'n'],
        HOSTILE.map((name) => [name, -1]),
      ),
    )
  })

  test('escapeFormula is the same rule, for a CSV another tool writes', () => {
    for (const name of HOSTILE) expect(escapeFormula(name)).toBe(`'${name}`)
    for (const safe of ['Gate', '2+3', 'a=b', '']) expect(escapeFormula(safe)).toBe(safe)
  })
})
