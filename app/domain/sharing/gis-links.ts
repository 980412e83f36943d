/**
 * The addresses a GIS or CAD program reads a share link's maps from: one WMTS service for every
 * shared orthomosaic and elevation model, and an XYZ template per map (for QGIS's "XYZ Tiles"
 * or AutoCAD's map import). Shown with the link, once, since they carry its token.
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

/** The link's WMTS and XYZ addresses (null when it shares no tiled map). */
export function gisLinksOf(
  shareUrl: string,
  files: Array<Pick<ProjectFile, 'id' | 'originalName' | 'deliverableKind' | 'rasterInfo'>>,
): GisLinks | null {
  const maps = files.filter(isTiledRaster)
  if (!maps.length) return null
  return {
    wmts: `${shareUrl}/wmts/1.0.0/WMTSCapabilities.xml`,
    xyz: maps.map((file) => ({
      fileId: file.id,
      name: file.originalName,
      url: `${shareUrl}/tiles/${file.id}/{z}/{x}/{y}.png`,
    })),
  }
}
