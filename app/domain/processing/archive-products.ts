/**
 * What Kestrel takes from a node's all.zip, recognised by its path in ODM's layout (never by
 * the upload allow-list meant for people's files), and what each preset needs to arrive.
 * Browser-safe: the checks themselves are in product-checks.server.ts.
 */
import type { DeliverableKind, ProcessingPreset } from '#db/enums.ts'

/** How a product's content is checked before it is kept. */
export type ProductCheck = 'geotiff' | 'las' | 'glb' | 'obj' | 'pdf' | 'geojson'

export type ProductSlot = 'orthomosaic' | 'dsm' | 'dtm' | 'point_cloud' | 'model' | 'report' | 'shots'

export interface ProductCandidate {
  path: string
  /** The deliverable's name as the client reads it. */
  name: string
  check: ProductCheck
}

export interface ProductSpec {
  slot: ProductSlot
  /** Names it in a failure ("The DSM in the results is not a readable GeoTIFF"). */
  label: string
  kind: DeliverableKind
  /** Tried in this order; the first readable one is kept. */
  candidates: ProductCandidate[]
}

export const ARCHIVE_PRODUCTS: readonly ProductSpec[] = [
  {
    slot: 'orthomosaic',
    label: 'The orthomosaic',
    kind: 'orthomosaic',
    candidates: [{ path: 'odm_orthophoto/odm_orthophoto.tif', name: 'Orthomosaic.tif', check: 'geotiff' }],
  },
  {
    slot: 'dsm',
    label: 'The DSM',
    kind: 'elevation',
    candidates: [{ path: 'odm_dem/dsm.tif', name: 'DSM - surface model.tif', check: 'geotiff' }],
  },
  {
    slot: 'dtm',
    label: 'The DTM',
    kind: 'elevation',
    candidates: [{ path: 'odm_dem/dtm.tif', name: 'DTM - terrain model.tif', check: 'geotiff' }],
  },
  {
    slot: 'point_cloud',
    label: 'The point cloud',
    kind: 'point_cloud',
    candidates: [
      {
        path: 'odm_georeferencing/odm_georeferenced_model.copc.laz',
        name: 'Point cloud.copc.laz',
        check: 'las',
      },
      { path: 'odm_georeferencing/odm_georeferenced_model.laz', name: 'Point cloud.laz', check: 'las' },
      { path: 'odm_georeferencing/odm_georeferenced_model.las', name: 'Point cloud.las', check: 'las' },
    ],
  },
  {
    slot: 'model',
    label: 'The 3D model',
    kind: 'model_3d',
    candidates: [
      { path: 'odm_texturing/odm_textured_model_geo.glb', name: '3D model.glb', check: 'glb' },
      // No GLB: the OBJ with its material and textures, zipped as one model.
      { path: 'odm_texturing/odm_textured_model_geo.obj', name: '3D model (OBJ).zip', check: 'obj' },
    ],
  },
  {
    slot: 'report',
    label: 'The processing report',
    kind: 'report',
    candidates: [{ path: 'odm_report/report.pdf', name: 'Processing report.pdf', check: 'pdf' }],
  },
  {
    slot: 'shots',
    label: 'The camera positions',
    kind: 'vector',
    candidates: [{ path: 'odm_report/shots.geojson', name: 'Camera positions.geojson', check: 'geojson' }],
  },
]

/** What must arrive for a job of each preset to complete. */
export const REQUIRED_PRODUCTS: Record<ProcessingPreset, readonly ProductSlot[]> = {
  'fast-orthophoto': ['orthomosaic'],
  standard: ['orthomosaic', 'dsm'],
  'full-3d': ['orthomosaic', 'dsm', 'point_cloud'],
}

/**
 * What a preset is run for but may come without: the job completes, and its results wait for an
 * admin's review instead of being delivered by themselves (`steps/follow-up.server.ts`). A node
 * may send no readable model (NodeODM's test mode: a 5-byte GLB and an empty OBJ; ODM when
 * meshing is skipped); the map products are still worth delivering, but a person decides.
 */
export const EXPECTED_PRODUCTS: Record<ProcessingPreset, readonly ProductSlot[]> = {
  'fast-orthophoto': [],
  standard: [],
  'full-3d': ['model'],
}

const READABLE_AS: Record<ProductSlot, string> = {
  orthomosaic: 'GeoTIFF',
  dsm: 'GeoTIFF',
  dtm: 'GeoTIFF',
  point_cloud: 'LAS/LAZ point cloud',
  model: 'glTF model or OBJ',
  report: 'PDF',
  shots: 'GeoJSON',
}

export const IMPORT_MESSAGES = {
  missing: (spec: ProductSpec) => `${spec.label} is not in the results`,
  unreadable: (spec: ProductSpec) =>
    `${spec.label} in the results is not a readable ${READABLE_AS[spec.slot]}`,
} as const

/** 3D Tiles ODM writes: `3d_tiles/model/`, `3d_tiles/pointcloud/` (and a lone `3d_tiles/tileset.json`). */
export const TILESET_PATH = /^3d_tiles\/(?:[^/]+\/)?tileset\.json$/
export const TILES_ROOT = '3d_tiles/'

/** ODM's statistics: the accuracy statement is read from it. */
export const STATS_PATH = 'odm_report/stats.json'
