/**
 * The entries of the all.zip a real NodeODM serves in test mode (real-all-zip.tsv, recorded
 * from OpenDroneMap's server): the simulator's archive follows it, and the import's tests
 * build their fixture from it.
 */
import fs from 'node:fs'

export interface RealEntry {
  /** As in the archive; a name ending in `/` is a directory entry. */
  name: string
  size: number
}

export const REAL_LAYOUT_FILE = new URL('./real-all-zip.tsv', import.meta.url)

export function parseLayout(text: string): RealEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => {
      const [size, name] = line.split('\t')
      return { name: name!.trim(), size: Number(size) }
    })
}

let cached: RealEntry[] | null = null

/** The real archive's entries, in its order. */
export function realLayout(): RealEntry[] {
  cached ??= parseLayout(fs.readFileSync(REAL_LAYOUT_FILE, 'utf8'))
  return cached
}
