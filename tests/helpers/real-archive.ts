/** What Kestrel makes of NodeODM's real test-mode archive (recorded in server/nodeodm-simulator/real-layout.ts). */

/** What the archive holds that Kestrel delivers but cannot read, with the reason it records. */
export const REAL_SKIPS = [
  { path: 'odm_texturing/odm_textured_model_geo.glb', reason: '5 bytes: not a glTF model' },
  { path: 'odm_texturing/odm_textured_model_geo.obj', reason: '0 bytes: empty' },
  { path: 'odm_report/report.pdf', reason: '0 bytes: empty' },
  { path: '3d_tiles/model/tileset.json', reason: '0 bytes: empty' },
  { path: '3d_tiles/pointcloud/tileset.json', reason: '0 bytes: empty' },
]
