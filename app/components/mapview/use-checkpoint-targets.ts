/**
 * The admin's checkpoint targets on the Map view (JavaScript): arm one checkpoint, click where its
 * target shows on the orthomosaic, and its map position (converted to the checkpoints' CRS with
 * GDAL's own PROJ.4 text of it, kept on the report) is saved by re-submitting the checkpoints with
 * map_easting,map_northing: the server computes the horizontal error and RMSE.
 */
import type { SerializeFrom } from '@remix-run/node'
import { useRevalidator } from '@remix-run/react'
import type { CheckpointReport, CheckpointResult } from '#db/schema.ts'
import proj4 from 'proj4'
import { useCallback, useState } from 'react'

import { readApiError } from './map-kit/read-error.ts'

/** An elevation model with a checkpoint report whose CRS the browser can convert. */
export type TargetModel = { id: number; fileName: string; report: SerializeFrom<CheckpointReport> }

const TARGET_FAILED = 'The target could not be saved.'

/** The checkpoints as CSV again, with each target's map position (the one placed now replaced). */
export function targetsCsv(
  points: Pick<CheckpointResult, 'id' | 'easting' | 'northing' | 'elevationM' | 'map'>[],
  placed: { id: string; map: [number, number] },
) {
  const lines = points.map((p) => {
    const map = p.id === placed.id ? placed.map : p.map
    // Four decimals (0,1 mm): the CSV's numbers are at most twelve.
    const mapCells = map ? `${map[0].toFixed(4)},${map[1].toFixed(4)}` : ','
    return `${p.id},${p.easting},${p.northing},${p.elevationM},${mapCells}`
  })
  return `id,easting,northing,elevation,map_easting,map_northing\n${lines.join('\n')}\n`
}

/** A point of the report's CRS as [lng, lat] (null when its CRS cannot be read here). */
export function toLngLat(report: SerializeFrom<CheckpointReport>, xy: [number, number]) {
  if (!report.proj4) return null
  try {
    // `true`: the CRS's own axes (Lo grids: west, south), as GDAL takes the checkpoints.
    return proj4(report.proj4).inverse(xy, true) as [number, number]
  } catch {
    return null
  }
}

export function useCheckpointTargets(projectId: number | null, models: TargetModel[]) {
  const [armed, setArmed] = useState<{ fileId: number; pointId: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const revalidator = useRevalidator()
  const model = armed ? models.find((m) => m.id === armed.fileId) : undefined
  const place = useCallback(
    async ([lng, lat]: [number, number]) => {
      if (!armed || !model?.report.proj4 || projectId === null) return
      const map = proj4(model.report.proj4).forward([lng, lat], true) as [number, number]
      setBusy(true)
      setError(null)
      try {
        const response = await fetch(`/api/projects/${projectId}/deliverables/${model.id}/checkpoints`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            crs: model.report.crs,
            csv: targetsCsv(model.report.points, { id: armed.pointId, map }),
          }),
        })
        if (!response.ok) return void setError(await readApiError(response, TARGET_FAILED))
        setArmed(null)
        revalidator.revalidate()
      } catch {
        setError(TARGET_FAILED)
      } finally {
        setBusy(false)
      }
    },
    [armed, model, projectId, revalidator],
  )
  return {
    models,
    armed,
    busy,
    error,
    /** Arms a checkpoint (again: disarms it). */
    onArm: (fileId: number, pointId: string) =>
      setArmed((now) => (now?.fileId === fileId && now.pointId === pointId ? null : { fileId, pointId })),
    /** The map's click while a checkpoint is armed (null otherwise). */
    onMapClick: armed && !busy ? place : null,
  }
}

export type CheckpointTargets = ReturnType<typeof useCheckpointTargets>
