/**
 * Fitting the map to the areas and taking its screenshot (leaflet-image). Tiles that
 * fail to load (offline) only leave the background empty. Browser only.
 */
import { MAX_SCREENSHOT_CHARS } from '#app/domain/flight-plan/flight-plan.ts'
import type { LatLng } from '#app/domain/geometry/areas.ts'
import L from 'leaflet'

/** How the satellite tiles are doing; an offline map skips them in the screenshot. */
export const tileHealth = { loaded: 0, failed: 0 }

/** Fits the map to the drawn areas (used when a saved plan is opened again). */
export function fitToAreas(map: L.Map, areas: LatLng[][]) {
  const points = areas.flat()
  if (!points.length) return
  map.fitBounds(L.latLngBounds(points.map((p) => [p.latitude, p.longitude] as [number, number])), {
    padding: [40, 40],
    maxZoom: 17,
  })
}

/**
 * A PNG of the map (leaflet-image), scaled to 0.8. Null when the canvas
 * is tainted (tiles without CORS), leaflet-image fails, or it takes too long (offline).
 */
export async function captureMap(map: L.Map, timeoutMs = 8000): Promise<string | null> {
  // Offline (no tile ever loaded): leave the tiles out, or leaflet-image waits on each one.
  const skipTiles = tileHealth.loaded === 0
  const removed: L.Layer[] = []
  try {
    ;(window as unknown as { L: typeof L }).L ??= L
    const { default: leafletImage } = await import('leaflet-image')
    if (skipTiles) {
      map.eachLayer((layer) => {
        if (layer instanceof L.TileLayer) removed.push(layer)
      })
      removed.forEach((layer) => map.removeLayer(layer))
    }
    const canvas = await new Promise<HTMLCanvasElement | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), timeoutMs)
      leafletImage(map, (error: unknown, result: HTMLCanvasElement) => {
        clearTimeout(timer)
        resolve(error ? null : result)
      })
    })
    if (!canvas) return null
    const scaled = document.createElement('canvas')
    scaled.width = Math.max(1, Math.round(canvas.width * 0.8))
    scaled.height = Math.max(1, Math.round(canvas.height * 0.8))
    scaled.getContext('2d')?.drawImage(canvas, 0, 0, scaled.width, scaled.height)
    // At most 1 MB is stored: a PNG when it fits, a JPEG otherwise (the server drops anything larger).
    const png = scaled.toDataURL('image/png')
    return png.length <= MAX_SCREENSHOT_CHARS ? png : scaled.toDataURL('image/jpeg', 0.7)
  } catch (error) {
    // A tainted canvas throws a SecurityError here: no screenshot, the quote goes on.
    console.warn('[planner] screenshot unavailable', error)
    return null
  } finally {
    removed.forEach((layer) => map.addLayer(layer))
  }
}
