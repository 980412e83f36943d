/**
 * ODM's stages as people read them. ODM logs "Running <stage> stage" as it enters each one
 * (its `ODM_Stage.run`); the node's console lines (`/task/{uuid}/output?line=N`) are read for
 * the newest such line. Browser-safe: the client's page shows only these words, never the
 * node's own lines.
 */
export const ODM_STAGE_LABELS: Readonly<Record<string, string>> = {
  dataset: 'Reading the photos (dataset)',
  split: 'Splitting the survey into parts',
  merge: 'Merging the parts',
  opensfm: 'Matching the photos (OpenSfM)',
  openmvs: 'Building the dense point cloud (OpenMVS)',
  odm_filterpoints: 'Filtering the point cloud',
  odm_meshing: 'Building the mesh (meshing)',
  mvs_texturing: 'Texturing the model (texturing)',
  odm_georeferencing: 'Placing the model on the map (georeferencing)',
  odm_dem: 'Making the elevation models (DEM)',
  odm_orthophoto: 'Making the orthomosaic (orthophoto)',
  odm_report: 'Writing the report',
  odm_postprocess: 'Finishing the results',
}

const STAGE_LINE = /\bRunning ([a-z_]{1,40}) stage\b/

/** The stage the newest "Running … stage" line names, in plain words; null when the lines name none ODM has. */
export function odmStageOf(lines: readonly string[]): string | null {
  for (let i = lines.length - 1; i >= 0; i--) {
    const match = STAGE_LINE.exec(lines[i]!.slice(0, 200))
    const label = match ? ODM_STAGE_LABELS[match[1]!] : undefined
    if (label) return label
  }
  return null
}

const PLAIN_STAGES = new Set(Object.values(ODM_STAGE_LABELS))

/** Whether a job's stage text is one of ODM's stages in plain words (what a client may read). */
export function isOdmStage(stage: string | null | undefined): boolean {
  return typeof stage === 'string' && PLAIN_STAGES.has(stage)
}
