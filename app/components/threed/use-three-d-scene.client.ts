/**
 * The 3D view's scene as React state: the scene made once in `host`, the sources loaded
 * (again when the point budget changes), colour, point size and visibility changed in place,
 * and two points picked by a click (not a drag) while measuring.
 */
import type { CloudFacts, ThreeDSource } from '#app/domain/threed/three-d.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'
import lazPerfWasm from 'laz-perf/lib/laz-perf.wasm'
import { useEffect, useRef, useState } from 'react'
import * as THREE from 'three'

import { loadCopc, loadThinnedLas, originOf, rangeStats, type CloudChunk } from './point-sources.ts'
import {
  clearSources,
  createScene,
  drawPicks,
  frameAll,
  heightColours,
  loadGlb,
  loadTiles,
  pickAt,
  uploadStill,
  type Scene,
} from './scene.client.ts'

export type ColourMode = 'rgb' | 'height'
type Facted = Extract<ThreeDSource, { facts: CloudFacts }>

/** What the panel sets: the scene follows it. */
export interface ViewSettings {
  budget: number | null
  colour: ColourMode
  pointSize: number
  showModel: boolean
  showCloud: boolean
  measuring: boolean
}

export function useThreeDScene(
  host: React.RefObject<HTMLDivElement>,
  sources: ThreeDSource[],
  stillUploadUrl: string | null,
  settings: ViewSettings,
) {
  const { budget, colour, pointSize, showModel, showCloud, measuring } = settings
  const state = useRef<Scene | null>(null)
  const [picks, setPicks] = useState<THREE.Vector3[]>([])
  const [status, setStatus] = useState('Loading…')
  const [drawn, setDrawn] = useState({ points: 0, models: 0 })
  const [error, setError] = useState<string | null>(null)

  const clouds = sources.filter((s): s is Facted => s.type === 'copc' || s.type === 'las')
  const hasModel = sources.some((s) => s.type === 'glb' || s.type === 'tiles')
  const origin = originOf(clouds.map((c) => c.facts))
  const zRange = clouds.length
    ? {
        min: Math.min(...clouds.map((c) => c.facts.min[2])),
        max: Math.max(...clouds.map((c) => c.facts.max[2])),
      }
    : null
  const sourceKey = sources.map((s) => s.url).join('|')
  const coloursOf = (positions: Float32Array, rgb: Float32Array) =>
    colour === 'height' && zRange
      ? heightColours(positions, zRange.min - origin[2], zRange.max - origin[2])
      : rgb

  // The renderer, camera and controls: made once.
  useEffect(() => {
    const element = host.current
    if (!element) return
    const { scene, dispose } = createScene(element)
    state.current = scene
    return () => {
      dispose()
      state.current = null
    }
  }, [host])

  // The sources: loaded again when the budget changes.
  useEffect(() => {
    const s = state.current
    if (!s || budget === null) return
    const controller = new AbortController()
    const { signal } = controller
    clearSources(s)
    setDrawn({ points: 0, models: 0 })
    setError(null)
    setStatus('Loading…')
    rangeStats.bytes = 0
    rangeStats.requests = 0
    let points = 0
    const material = new THREE.PointsMaterial({ size: pointSize, sizeAttenuation: false, vertexColors: true })
    const addChunk = (chunk: CloudChunk) => {
      if (signal.aborted) return
      const geometry = new THREE.BufferGeometry()
      geometry.setAttribute('position', new THREE.BufferAttribute(chunk.positions, 3))
      geometry.setAttribute('color', new THREE.BufferAttribute(coloursOf(chunk.positions, chunk.colours), 3))
      geometry.computeBoundingSphere()
      const cloud = new THREE.Points(geometry, material)
      s.clouds.add(cloud)
      s.chunks.push({ points: cloud, rgb: chunk.colours })
      points += chunk.count
      setDrawn((d) => ({ ...d, points }))
      if (s.chunks.length === 1) frameAll(s)
      s.dirty = true
    }
    const perCloud = Math.floor(budget / Math.max(1, clouds.length))
    const jobs: Array<Promise<unknown>> = clouds.map((c) =>
      c.type === 'copc'
        ? loadCopc(c.url, origin, perCloud, signal, addChunk, lazPerfWasm)
        : loadThinnedLas(c.url, origin, perCloud, signal, addChunk),
    )
    for (const source of sources) {
      if (source.type === 'glb') jobs.push(loadGlb(s, source.url, origin, signal))
      if (source.type === 'tiles') jobs.push(Promise.resolve(loadTiles(s, source.url)))
    }
    void Promise.allSettled(jobs).then((results) => {
      if (signal.aborted) return
      const failed = results.find((r) => r.status === 'rejected')
      if (failed)
        setError(`Part of the view could not be loaded: ${String((failed as PromiseRejectedResult).reason)}`)
      setDrawn({ points, models: s.models.children.length })
      frameAll(s)
      setStatus(`Drawn · ${formatNumber(rangeStats.bytes / 1024 / 1024, 1)} MB read`)
      host.current?.setAttribute('data-ready', 'true')
      if (stillUploadUrl && !failed) void uploadStill(s, stillUploadUrl)
    })
    return () => controller.abort()
    // Colour and point size change materials in place (below), not the loading.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sourceKey, budget])

  // Colour mode, point size and visibility: in place.
  useEffect(() => {
    const s = state.current
    if (!s) return
    for (const { points, rgb } of s.chunks) {
      const positions = points.geometry.getAttribute('position').array as Float32Array
      points.geometry.setAttribute('color', new THREE.BufferAttribute(coloursOf(positions, rgb), 3))
      ;(points.material as THREE.PointsMaterial).size = pointSize
    }
    s.clouds.visible = showCloud
    s.models.visible = showModel
    for (const t of s.tiles) t.group.visible = showModel
    s.dirty = true
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colour, pointSize, showCloud, showModel, drawn.points])

  // Picking: a click (not a drag) picks the nearest point or model surface under the pointer.
  useEffect(() => {
    const s = state.current
    if (!s || !measuring) return
    const canvas = s.renderer.domElement
    let down: { x: number; y: number } | null = null
    const onDown = (e: PointerEvent) => (down = { x: e.clientX, y: e.clientY })
    const onUp = (e: PointerEvent) => {
      if (!down || Math.hypot(e.clientX - down.x, e.clientY - down.y) > 6) return
      const targets = [
        ...(showCloud ? [s.clouds] : []),
        ...(showModel ? [s.models, ...s.tiles.map((t) => t.group)] : []),
      ]
      const point = pickAt(s, e, targets)
      if (point) setPicks((p) => (p.length >= 2 ? [point] : [...p, point]))
    }
    canvas.addEventListener('pointerdown', onDown)
    canvas.addEventListener('pointerup', onUp)
    return () => {
      canvas.removeEventListener('pointerdown', onDown)
      canvas.removeEventListener('pointerup', onUp)
    }
  }, [measuring, showCloud, showModel])

  // The picked points and the line between them.
  useEffect(() => {
    if (state.current) drawPicks(state.current, picks)
  }, [picks])

  return { state, clouds, hasModel, zRange, picks, setPicks, status, drawn, error }
}
