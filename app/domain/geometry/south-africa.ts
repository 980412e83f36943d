/**
 * A deliberately generous outline of South Africa (lon, lat), drawn by hand with a
 * margin of roughly 20–50 km outside the border and coast. It is a sanity check
 * ("you drew in the right country"), not a legal boundary: it also takes in Lesotho,
 * Eswatini and thin strips of the neighbouring countries.
 */
const ZA_OUTLINE: Array<[number, number]> = [
  [16.2, -28.2], // Orange River mouth, north margin
  [19.6, -28.2],
  [19.7, -24.4], // 20°E border with Namibia, west margin
  [20.6, -24.4],
  [21.2, -26.2], // Nossob / Molopo, Botswana side
  [22.5, -25.4],
  [24.0, -25.2],
  [25.4, -25.2],
  [26.0, -24.2],
  [27.2, -23.2], // Limpopo
  [28.3, -22.0],
  [29.0, -21.9],
  [31.5, -22.1], // Pafuri
  [32.2, -22.4],
  [32.3, -25.5], // Mozambique border
  [33.2, -26.7], // off Kosi Bay
  [33.0, -28.5],
  [31.5, -30.3], // off Durban
  [30.3, -31.8],
  [28.3, -33.4], // off East London
  [26.0, -34.3],
  [22.5, -34.7],
  [20.0, -35.2], // off Cape Agulhas
  [18.2, -34.7],
  [17.6, -33.0],
  [16.9, -31.5],
  [16.2, -28.6],
  [16.2, -28.2],
]

/** Point-in-polygon by ray casting; the outline is small and planar enough. */
export function isInSouthAfrica(latitude: number, longitude: number): boolean {
  let inside = false
  const ring = ZA_OUTLINE
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]
    const [xj, yj] = ring[j]
    const crosses =
      yi > latitude !== yj > latitude && longitude < ((xj - xi) * (latitude - yi)) / (yj - yi) + xi
    if (crosses) inside = !inside
  }
  return inside
}
