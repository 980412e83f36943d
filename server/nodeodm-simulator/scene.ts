/**
 * The made-up ground the simulator "reconstructs": a terrain of gentle hills (the DTM), with
 * buildings and trees standing on it (the DSM) and the colours an orthophoto of it would
 * show, all a pure function of the position in metres and a seed — so the DSM, DTM,
 * orthophoto, point cloud and model of one task agree with each other.
 */

export interface Grid {
  /** Upper-left corner (easting, northing) and pixel size in metres. */
  ulx: number
  uly: number
  pixel: number
  width: number
  height: number
}

export type Ring = Array<[number, number]>

/** Cell centre of column `col`, row `row`. */
export function cellCentre(grid: Grid, col: number, row: number): [number, number] {
  return [grid.ulx + (col + 0.5) * grid.pixel, grid.uly - (row + 0.5) * grid.pixel]
}

/** 1 inside the rings (even-odd, so holes stay out), 0 outside; a scanline fill per row. */
export function rasterizeRings(grid: Grid, rings: Ring[]): Uint8Array {
  const mask = new Uint8Array(grid.width * grid.height)
  const crossings: number[] = []
  for (let row = 0; row < grid.height; row++) {
    const y = grid.uly - (row + 0.5) * grid.pixel
    crossings.length = 0
    for (const ring of rings)
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!
        const [xj, yj] = ring[j]!
        if (yi > y !== yj > y) crossings.push(xi + ((y - yi) / (yj - yi)) * (xj - xi))
      }
    crossings.sort((a, b) => a - b)
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil((crossings[k]! - grid.ulx) / grid.pixel - 0.5))
      const to = Math.min(grid.width - 1, Math.floor((crossings[k + 1]! - grid.ulx) / grid.pixel - 0.5))
      for (let col = from; col <= to; col++) mask[row * grid.width + col] = 1
    }
  }
  return mask
}

function hash(a: number, b: number, seed: number) {
  let h = (Math.imul(a, 374761393) + Math.imul(b, 668265263) + Math.imul(seed, 2246822519)) | 0
  h = Math.imul(h ^ (h >>> 13), 1274126177)
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296
}

/** Smooth value noise in [0, 1) at a scale of `cell` metres. */
function noise(x: number, y: number, cell: number, seed: number) {
  const gx = x / cell
  const gy = y / cell
  const x0 = Math.floor(gx)
  const y0 = Math.floor(gy)
  const fx = gx - x0
  const fy = gy - y0
  const sx = fx * fx * (3 - 2 * fx)
  const sy = fy * fy * (3 - 2 * fy)
  const a = hash(x0, y0, seed)
  const b = hash(x0 + 1, y0, seed)
  const c = hash(x0, y0 + 1, seed)
  const d = hash(x0 + 1, y0 + 1, seed)
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy
}

const BLOCK_M = 45

type Feature =
  | { kind: 'building'; height: number; halfW: number; halfH: number; cx: number; cy: number; roof: number }
  | { kind: 'tree'; height: number; radius: number; cx: number; cy: number }

/** At most one building or tree in each 45 m block (some blocks stay open ground). */
function featureOf(bx: number, by: number, seed: number): Feature | null {
  // The block's own numbers, each from its salt: the same block always holds the same feature.
  const draw = (salt: number) => hash(bx, by, seed + salt)
  const r = draw(17)
  const centre = { cx: (bx + 0.25 + 0.5 * draw(3)) * BLOCK_M, cy: (by + 0.25 + 0.5 * draw(5)) * BLOCK_M }
  if (r < 0.22) {
    const footprint = { halfW: 5 + 6 * draw(7), halfH: 4 + 5 * draw(11) }
    return { kind: 'building', ...centre, ...footprint, height: 3 + 6 * draw(13), roof: draw(19) }
  }
  if (r < 0.62) return { kind: 'tree', ...centre, radius: 2.5 + 3 * draw(23), height: 4 + 6 * draw(29) }
  return null
}

export class Scene {
  constructor(
    readonly baseElevation: number,
    readonly seed: number,
  ) {}

  /** Bare ground height (m). */
  ground(x: number, y: number) {
    return (
      this.baseElevation +
      14 * noise(x, y, 260, this.seed) +
      5 * noise(x, y, 90, this.seed + 1) +
      0.6 * noise(x, y, 17, this.seed + 2)
    )
  }

  private feature(x: number, y: number): { feature: Feature; above: number } | null {
    const bx = Math.floor(x / BLOCK_M)
    const by = Math.floor(y / BLOCK_M)
    const f = featureOf(bx, by, this.seed)
    if (!f) return null
    if (f.kind === 'building') {
      if (Math.abs(x - f.cx) <= f.halfW && Math.abs(y - f.cy) <= f.halfH)
        return { feature: f, above: f.height }
      return null
    }
    const d = Math.hypot(x - f.cx, y - f.cy)
    if (d >= f.radius) return null
    return { feature: f, above: f.height * Math.sqrt(1 - (d / f.radius) ** 2) }
  }

  /** Surface height (m): ground plus whatever stands on it. */
  surface(x: number, y: number) {
    return this.ground(x, y) + (this.feature(x, y)?.above ?? 0)
  }

  /** LAS classification: 2 ground, 5 high vegetation, 6 building. */
  classOf(x: number, y: number) {
    const f = this.feature(x, y)?.feature
    return f?.kind === 'building' ? 6 : f?.kind === 'tree' ? 5 : 2
  }

  /** The colour an orthophoto would show before light and shade. */
  baseColour(x: number, y: number): [number, number, number] {
    const hit = this.feature(x, y)
    if (hit?.feature.kind === 'building') return hit.feature.roof < 0.5 ? [168, 72, 58] : [150, 152, 156]
    if (hit?.feature.kind === 'tree') {
      const t = 0.7 + 0.3 * (hit.above / hit.feature.height)
      return [44 * t, 92 * t, 40 * t]
    }
    if (Math.abs(((((x + 0.35 * y) % 210) + 210) % 210) - 105) < 3.5) return [118, 112, 104]
    const field = noise(x, y, 60, this.seed + 31)
    const grain = noise(x, y, 4, this.seed + 37)
    return field > 0.55
      ? [176 + 30 * grain, 160 + 24 * grain, 112 + 16 * grain]
      : [96 + 40 * grain, 128 + 36 * grain, 66 + 20 * grain]
  }
}

/** The surface heights at the cells' centres. */
export function surfaceGrid(scene: Scene, grid: Grid, which: 'surface' | 'ground' = 'surface') {
  const values = new Float32Array(grid.width * grid.height)
  for (let row = 0; row < grid.height; row++)
    for (let col = 0; col < grid.width; col++) {
      const [x, y] = cellCentre(grid, col, row)
      values[row * grid.width + col] = which === 'surface' ? scene.surface(x, y) : scene.ground(x, y)
    }
  return values
}

/** The orthophoto's pixels inside the mask (band-sequential RGBA), lit from the north-west by the surface's slope. */
export function orthoPixels(scene: Scene, grid: Grid, mask: Uint8Array, surface: Float32Array) {
  const { width, height } = grid
  const n = width * height
  const rgba = new Uint8Array(n * 4)
  for (let row = 0; row < height; row++)
    for (let col = 0; col < width; col++) {
      const i = row * width + col
      if (!mask[i]) continue
      const [x, y] = cellCentre(grid, col, row)
      const east =
        surface[row * width + Math.min(width - 1, col + 1)]! - surface[row * width + Math.max(0, col - 1)]!
      const north =
        surface[Math.max(0, row - 1) * width + col]! - surface[Math.min(height - 1, row + 1) * width + col]!
      const shade = Math.max(0.55, Math.min(1.25, 1 + (-east + north) / (4 * grid.pixel)))
      const [r, g, b] = scene.baseColour(x, y)
      rgba[i] = clampByte(r * shade)
      rgba[n + i] = clampByte(g * shade)
      rgba[2 * n + i] = clampByte(b * shade)
      rgba[3 * n + i] = 255
    }
  return rgba
}

function clampByte(v: number) {
  return Math.max(0, Math.min(255, Math.round(v)))
}
