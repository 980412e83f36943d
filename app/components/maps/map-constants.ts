/** What every satellite map in the app shares (browser-safe, no Leaflet import). */
export const TILE_ATTRIBUTION =
  'Imagery © Esri, Maxar, Earthstar Geographics, and the GIS User Community · Airspace: SA AIP via XCSoar (2018) — NOT FOR NAVIGATION'

/** Survey areas are drawn the same way on every map. */
export const AREA_STYLE = { color: '#fcb84d', weight: 3, fillColor: '#f57c0b', fillOpacity: 0.25 } as const
