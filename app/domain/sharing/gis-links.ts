/**
 * The addresses a GIS or CAD program reads maps from: one WMTS service for every orthomosaic and
 * elevation model, and an XYZ template per map (for QGIS's "XYZ Tiles" or AutoCAD's map import).
 * A share link's are shown with the link, once, since they carry its token; a signed-in user's
 * (under /api/projects/{id}) are read with their session.
 */
import type { ProjectFile } from '#db/schema.ts'

/** A raster the link's tiles serve: an orthomosaic or an elevation model GDAL has read. */
export function isTiledRaster(file: Pick<ProjectFile, 'deliverableKind' | 'rasterInfo'>) {
  return (
    (file.deliverableKind === 'orthomosaic' || file.deliverableKind === 'elevation') &&
    file.rasterInfo !== null
  )
}

export interface GisLinks {
  wmts: string
  xyz: Array<{ fileId: number; name: string; url: string }>
}

/** The WMTS and XYZ addresses of these tiled maps under `base` (a share link's URL, or a project's API path). */
export function gisLinksOf(base: string, maps: Array<{ id: number; name: string }>): GisLinks | null {
  if (!maps.length) return null
  return {
    wmts: `${base}/wmts/1.0.0/WMTSCapabilities.xml`,
    xyz: maps.map((map) => ({
      fileId: map.id,
      name: map.name,
      url: `${base}/tiles/${map.id}/{z}/{x}/{y}.png`,
    })),
  }
}
