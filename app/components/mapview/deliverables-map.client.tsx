/**
 * The Map view's interactive map (browser only, loaded by the map route alone): satellite
 * base map, survey areas, each ready raster deliverable as a COG layer (ADR 238), the
 * layer list with opacity, swipe comparison, zoom to the data, the elevation legend, and
 * the measure tools: distance and area in the browser (turf), height, volume and a drawn
 * line's profile from the server's measure calls, and each elevation model's Contours layer
 * (signed in only: the share link's viewer has none),
 * and the map notes. The pieces the site Map view shares are in `map-kit/`.
 */
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import type { SurveyArea } from '#app/domain/geometry/areas.ts'
import type L from 'leaflet'
import { useEffect, useRef, useState } from 'react'

import { CheckpointTargetsPanel } from './checkpoint-targets-panel.tsx'
import { CheckpointTargetsOnMap } from './checkpoint-targets.client.tsx'
import { ContourControls } from './contour-controls.tsx'
import { ContourLayers } from './contour-lines.client.tsx'
import { MeasureOnMap } from './map-kit/measure-on-map.client.tsx'
import { boundsOf, RasterLayers } from './map-kit/raster-layers.client.tsx'
import { SurveyBaseMap, ViewReporter, type MapOutline } from './map-kit/survey-base-map.client.tsx'
import { SwipeDivider } from './map-kit/swipe-divider.tsx'
import { NotesInView } from './map-notes-in-view.client.tsx'
import { NotesOnMap } from './map-notes-layer.client.tsx'
import type { NoteRow } from './map-notes.tsx'
import { LayerPanel } from './map-panels.tsx'
import { MeasurePanel } from './measure-panel.tsx'
import { useNoteEditor } from './note-editor.ts'
import { NotesPanel } from './notes-panel.tsx'
import { ProfileResult } from './profile-result.tsx'
import { useCheckpointTargets, type TargetModel } from './use-checkpoint-targets.ts'
import { useContours } from './use-contours.ts'
import { useLayerView } from './use-layer-view.ts'
import { useMeasureTools } from './use-measure-tools.ts'

export function DeliverablesMap({
  tileUrl,
  projectId,
  areas,
  layers,
  notes = [],
  notesVersion,
  outlines = [],
  targetModels = [],
}: {
  tileUrl: string
  /** The project whose signed-in measure calls give height and volume; none on a share link. */
  projectId: number | null
  areas: SurveyArea[]
  layers: MapLayer[]
  /** The map notes: placed and changed by the project's members, shown read-only through a share link. */
  notes?: NoteRow[]
  /** A member's map loads the notes by bounding box instead, again when this changes. */
  notesVersion?: string
  /** Design surfaces' outlines, dashed and named. */
  outlines?: MapOutline[]
  /** The admin's elevation models with checkpoints, whose targets are placed by a click. */
  targetModels?: TargetModel[]
}) {
  const layerView = useLayerView(layers)
  const { swipe } = layerView
  const measure = useMeasureTools(projectId, layers)
  // Contours are the project's call: none through a share link.
  const contourView = useContours(projectId ?? 0, layerView)
  const contours = projectId === null ? null : contourView
  const measured = measure.tools.result
  const noteEditor = useNoteEditor()
  const targets = useCheckpointTargets(projectId, targetModels)
  // One drawing tool at a time: a note's shape or a measure.
  const measureMode = measure.tools.mode
  const { drawing, setDrawing } = noteEditor
  const stopMeasure = useRef(measure.tools.onMode)
  stopMeasure.current = measure.tools.onMode
  useEffect(() => {
    if (drawing && measureMode) stopMeasure.current(measureMode)
    // Only a newly chosen note tool stops the measure.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drawing])
  useEffect(() => {
    if (measureMode) setDrawing(null)
  }, [measureMode, setDrawing])
  const [view, setView] = useState<{ zoom: number; lat: number } | null>(null)
  const mapRef = useRef<L.Map | null>(null)
  const bounds = boundsOf(layers, areas)
  const onView = useRef((v: { zoom: number; lat: number }) => setView(v)).current

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
      <div className="relative">
        <div
          className="isolate h-[60vh] min-h-[22rem] overflow-hidden rounded-xl border border-ink-200 bg-ink-800"
          data-testid="deliverables-map"
          data-zoom={view?.zoom}
          data-center-lat={view?.lat}
        >
          <SurveyBaseMap bounds={bounds} tileUrl={tileUrl} areas={areas} outlines={outlines} mapRef={mapRef}>
            <RasterLayers view={layerView} />
            {contours ? <ContourLayers contours={contours} layerIds={layers.map((l) => l.id)} /> : null}
            <MeasureOnMap
              mode={measure.tools.mode}
              finishRef={measure.finishRef}
              onShape={measure.onShape}
              onPoint={measure.onPoint}
            />
            {projectId !== null && notesVersion !== undefined ? (
              <NotesInView projectId={projectId} version={notesVersion} editor={noteEditor} />
            ) : (
              <NotesOnMap notes={notes} projectId={projectId} editor={noteEditor} />
            )}
            {targetModels.length ? <CheckpointTargetsOnMap targets={targets} /> : null}
            <ViewReporter onView={onView} />
          </SurveyBaseMap>
        </div>
        {swipe ? (
          <>
            <SwipeDivider position={swipe.position} />
            <label className="mt-2 block text-sm text-ink-700">
              <span className="sr-only">Swipe position</span>
              <input
                type="range"
                min={0}
                max={100}
                value={swipe.position}
                onChange={(e) => layerView.onSwipePosition(Number(e.target.value))}
                className="w-full accent-sky-600"
                aria-label="Swipe position"
              />
            </label>
          </>
        ) : null}
        {measured?.kind === 'profile' ? (
          <section
            aria-labelledby="drawn-profile-heading"
            className="card mt-4 p-4"
            data-testid="drawn-profile"
          >
            <h2
              id="drawn-profile-heading"
              className="text-sm font-semibold uppercase tracking-wide text-ink-500"
            >
              Profile along the line drawn
            </h2>
            <ProfileResult figures={measured.figures} />
          </section>
        ) : null}
      </div>
      <div className="space-y-4">
        <LayerPanel
          view={layerView}
          extra={(layer) =>
            contours && layer.kind === 'elevation' ? (
              <ContourControls contours={contours} layer={layer} />
            ) : null
          }
          onZoomTo={(id) => {
            const map = mapRef.current
            if (!map) return
            const target =
              id === null
                ? bounds
                : boundsOf(
                    layers.filter((l) => l.id === id),
                    [],
                  )
            if (target.isValid()) map.fitBounds(target, { padding: [16, 16] })
          }}
        />
        <MeasurePanel measure={measure.tools} />
        {projectId !== null ? <NotesPanel projectId={projectId} editor={noteEditor} /> : null}
        {targetModels.length ? <CheckpointTargetsPanel targets={targets} /> : null}
      </div>
    </div>
  )
}
