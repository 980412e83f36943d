/**
 * Camera geometry of a survey grid (ADR 080): ground sampling distance ↔ altitude,
 * the photo footprint, the line spacing and the trigger distance. Browser-safe.
 * GSD is in cm/px and derived from the sensor width (square pixels assumed).
 */
export interface CameraSpec {
  sensorWidthMm: number
  sensorHeightMm: number
  focalLengthMm: number
  imageWidthPx: number
  imageHeightPx: number
}

/** GSD (cm/px) = 100 · H · Sw / (Iw · f). */
export function gsdCmFromAltitude(camera: CameraSpec, altitudeM: number) {
  return (100 * altitudeM * camera.sensorWidthMm) / (camera.imageWidthPx * camera.focalLengthMm)
}

/** H (m) = GSD · Iw · f / (100 · Sw). */
export function altitudeFromGsdCm(camera: CameraSpec, gsdCm: number) {
  return (gsdCm * camera.imageWidthPx * camera.focalLengthMm) / (100 * camera.sensorWidthMm)
}

/** Landscape camera: across-track (side) = Iw · GSD / 100, along-track (front) = Ih · GSD / 100, in metres. */
export function footprintM(camera: CameraSpec, gsdCm: number) {
  return { sideM: (camera.imageWidthPx * gsdCm) / 100, frontM: (camera.imageHeightPx * gsdCm) / 100 }
}

/** Distance between neighbouring lines: side footprint · (1 − side overlap). Overlaps in per cent. */
export function lineSpacingM(sideFootprintM: number, sideOverlapPct: number) {
  return sideFootprintM * (1 - sideOverlapPct / 100)
}

/** Distance between shots along a line: front footprint · (1 − front overlap). */
export function triggerDistanceM(frontFootprintM: number, frontOverlapPct: number) {
  return frontFootprintM * (1 - frontOverlapPct / 100)
}
