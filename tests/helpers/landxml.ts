/** Design surfaces as LandXML files, for the cut/fill and report tests. */

/**
 * A LandXML TIN of one quadrilateral (faces 1-2-3 and 1-3-4) from its corners (easting, northing,
 * elevation), written as LandXML writes points: northing, easting, elevation. `epsg` null leaves
 * the coordinate system out.
 */
export function quadLandXml(corners: ReadonlyArray<readonly [number, number, number]>, epsg: number | null) {
  const points = corners.map(([e, n, z], i) => `<P id="${i + 1}">${n} ${e} ${z}</P>`).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>
<LandXML xmlns="http://www.landxml.org/schema/LandXML-1.2" version="1.2">
  ${epsg === null ? '' : `<CoordinateSystem epsgCode="${epsg}"/>`}
  <Surfaces>
    <Surface name="Platform">
      <Definition surfType="TIN">
        <Pnts>
${points}
        </Pnts>
        <Faces>
          <F>1 2 3</F>
          <F>1 3 4</F>
        </Faces>
      </Definition>
    </Surface>
  </Surfaces>
</LandXML>
`
}

/** A flat pad of `sizeM` metres square at `heightM`, centred on (easting, northing). */
export function flatPadLandXml(
  centre: readonly [number, number],
  sizeM: number,
  heightM: number,
  epsg: number,
) {
  const [cx, cy] = centre
  const h = sizeM / 2
  const corners = [
    [cx - h, cy - h],
    [cx + h, cy - h],
    [cx + h, cy + h],
    [cx - h, cy + h],
  ] as const
  return quadLandXml(
    corners.map(([e, n]) => [e, n, heightM] as const),
    epsg,
  )
}
