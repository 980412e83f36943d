/**
 * The stockpile materials an admin keeps in Settings, each with its bulk density (t/m³): a
 * stockpile note naming one without a density weighs with the table's. Written as one material
 * per line, "Name = density", so the form is a plain textarea (no JavaScript needed).
 */
export interface Material {
  name: string
  densityTPerM3: number
}

const MAX_MATERIALS = 50
const MAX_TEXT = 4000

/** Typical loose bulk densities, t/m³ (suppliers' figures vary: an admin sets their own). */
export const DEFAULT_MATERIALS: readonly Material[] = [
  { name: 'Sand', densityTPerM3: 1.6 },
  { name: 'Gravel', densityTPerM3: 1.7 },
  { name: 'Crushed stone', densityTPerM3: 1.6 },
  { name: 'Topsoil', densityTPerM3: 1.3 },
  { name: 'Clay', densityTPerM3: 1.8 },
  { name: 'Coal', densityTPerM3: 0.85 },
  { name: 'Iron ore', densityTPerM3: 2.4 },
]

export const MATERIAL_MESSAGES = {
  line: (n: number) => `Line ${n}: write a material as “Name = density in t/m³”, e.g. “Sand = 1,6”.`,
  density: (n: number) => `Line ${n}: the density is more than 0 and at most 25 t/m³.`,
  twice: (name: string) => `“${name}” is in the list twice.`,
  tooMany: `At most ${MAX_MATERIALS} materials.`,
} as const

/** The table as the form's text, one "Name = density" a line (a decimal comma, as every figure we show). */
export function materialsText(materials: readonly Material[]) {
  return materials.map((m) => `${m.name} = ${String(m.densityTPerM3).replace('.', ',')}`).join('\n')
}

/** Reads the form's text: the materials, or the first problem (a line's number in it). */
export function parseMaterials(text: string): { materials: Material[] } | { error: string } {
  if (text.length > MAX_TEXT) return { error: MATERIAL_MESSAGES.tooMany }
  const lines = text.split(/\r?\n/)
  const materials: Material[] = []
  const seen = new Set<string>()
  // A decimal comma ("1,6") reads as a point.
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim()
    if (!line) continue
    const at = line.lastIndexOf('=')
    const name = at > 0 ? line.slice(0, at).trim() : ''
    const figure =
      at > 0
        ? line
            .slice(at + 1)
            .trim()
            .replace(',', '.')
        : ''
    if (!name || name.length > 60 || !/^\d+(\.\d+)?$/.test(figure))
      return { error: MATERIAL_MESSAGES.line(index + 1) }
    const density = Number(figure)
    if (!(density > 0 && density <= 25)) return { error: MATERIAL_MESSAGES.density(index + 1) }
    const key = name.toLowerCase()
    if (seen.has(key)) return { error: MATERIAL_MESSAGES.twice(name) }
    seen.add(key)
    materials.push({ name, densityTPerM3: density })
    if (materials.length > MAX_MATERIALS) return { error: MATERIAL_MESSAGES.tooMany }
  }
  return { materials }
}

/** The density the table gives a material (its name in any case); null when it is not listed. */
export function densityOf(materials: readonly Material[], name: string | null) {
  if (!name) return null
  const key = name.trim().toLowerCase()
  return materials.find((m) => m.name.toLowerCase() === key)?.densityTPerM3 ?? null
}
