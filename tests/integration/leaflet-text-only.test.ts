/**
 * Map labels reach Leaflet as text only: a string handed to bindTooltip/bindPopup becomes
 * innerHTML, and zone names come from uploaded KML. The lint rule enforces it in every
 * file; this proves the rule catches the string forms and that the planner passes.
 */
import path from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, test } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })
const file = path.resolve('app/components/planner/example.client.tsx')

async function messagesFor(code: string) {
  const [result] = await eslint.lintText(code, { filePath: file })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')
}

describe('Leaflet labels are text', () => {
  test.each([
    [
      'a template literal',
      'declare const layer: { bindTooltip(x: unknown): void }; declare const name: string\nlayer.bindTooltip(`${name} zone`)\n',
    ],
    [
      'a string literal',
      "declare const layer: { bindPopup(x: unknown): void }\nlayer.bindPopup('<b>zone</b>')\n",
    ],
    [
      'a concatenation',
      "declare const layer: { bindTooltip(x: unknown): void }; declare const name: string\nlayer.bindTooltip(name + ' zone')\n",
    ],
  ])(
    'refuses %s',
    async (_label, code) => {
      expect(await messagesFor(code)).toHaveLength(1)
    },
    30_000,
  )

  test('accepts an element, and the planner map passes', async () => {
    expect(
      await messagesFor(
        "declare const layer: { bindTooltip(x: unknown): void }\nconst label = document.createElement('span')\nlayer.bindTooltip(label)\n",
      ),
    ).toHaveLength(0)
    const results = await eslint.lintFiles(['app/components/planner/'])
    expect(
      results.flatMap((r) =>
        r.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => `${r.filePath}:${m.line}`),
      ),
    ).toEqual([])
  }, 60_000)
})
