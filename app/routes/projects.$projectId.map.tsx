/**
 * /projects/$projectId/map — the Map view of a project's deliverables, for its client, the
 * assigned pilot and admins (anyone else: 404). With JavaScript: the interactive map
 * (loaded only here), where members place, edit and delete notes. Always: the preview images with their footprint (no-JS), the
 * metadata table, the downloads and a volume form that takes typed corners.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageHeading } from '#app/components/layout/page-heading.tsx'
import { cutFillMapUrl, DesignSection, type CutFillView } from '#app/components/mapview/design-section.tsx'
import { GisSection } from '#app/components/mapview/gis-section.tsx'
import { LazyDeliverablesMap } from '#app/components/mapview/lazy-deliverables-map.tsx'
import { NotesSection } from '#app/components/mapview/map-notes.tsx'
import { DeliverableList, VolumeForm } from '#app/components/mapview/map-view-sections.tsx'
import {
  ContourDownloadForm,
  contoursUrl,
  ProfileSection,
  type ProfileView,
} from '#app/components/mapview/terrain-section.tsx'
import { VolumeReportForm } from '#app/components/mapview/volume-report-form.tsx'
import { handleNoteForm, NoteIntents } from '#app/domain/annotations/annotation-forms.server.ts'
import { noteListPage, notesVersion, polygonTitles } from '#app/domain/annotations/annotation-pages.server.ts'
import { earlierSurveyModels } from '#app/domain/annotations/earlier-surveys.server.ts'
import { getMaterials } from '#app/domain/annotations/materials.server.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { loadMapView, volumeFromForm } from '#app/domain/deliverables/map-view.server.ts'
import { profileFromForm } from '#app/domain/deliverables/profile-form.server.ts'
import { listDesignSurfaces } from '#app/domain/design/design-surfaces.server.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { gisLinksOf } from '#app/domain/sharing/gis-links.ts'
import { appUrl, getEnv } from '#app/lib/config/env.server.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { createToastHeaders } from '#app/lib/http/toast.server.ts'

import { cutFillAnswer, designDeleteAnswer, designUploadAnswer } from './_helpers/map-design.server.ts'

export { deliverablesMapLinks as links } from '#app/components/mapview/lazy-deliverables-map.tsx'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Map · Kestrel` : 'Map · Kestrel' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const view = await asPage(() => loadMapView(user, pageId(params.projectId)))
  const projectId = view.project.id
  // The list is paged (`?notes=2`) and carries no shapes: the map loads those by bounding box.
  const search = new URL(request.url).searchParams
  const notePage = noteListPage(user, projectId, Number(search.get('notes') ?? 1))
  return json({
    ...view,
    designSurfaces: listDesignSurfaces(user, projectId),
    isAdmin: user.role === 'admin',
    deleteDesignId: Number(search.get('deleteDesign')) || null,
    notePage,
    notesVersion: notesVersion(projectId),
    // The saved polygons a volume report can be made for.
    reportPolygons: polygonTitles(projectId),
    // The admin's table: offered as the note form's material suggestions.
    materials: getMaterials(),
    reportEarlierSurveys: earlierSurveyModels(user, requireVisibleProject(user, projectId)),
    tileUrl: getEnv().TILE_URL,
    gis: gisLinksOf(
      `${appUrl()}/api/projects/${projectId}`,
      view.layers.map((layer) => ({ id: layer.id, name: layer.fileName })),
    ),
  })
}

/** The terrain profile's, cut/fill's and design deletion's forms (the notes have their own; the volume form has none). */
const MapPageIntents = intentSchema('profile', 'cut-fill', 'design-delete')

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const { project } = await asPage(() => loadMapView(user, pageId(params.projectId)))
  // The design upload is the page's one multipart form: its body is the file, read as it streams.
  if (isMultipart(request)) return designUploadAnswer(user, project.id, request)
  const form = await readFormBody(request)
  const pageIntent = readIntent(form, MapPageIntents)
  if (pageIntent === 'profile') return profileAnswer(user, project.id, form, request.signal)
  if (pageIntent === 'cut-fill') return cutFillAnswer(user, project.id, form, request.signal)
  if (pageIntent === 'design-delete') return designDeleteAnswer(user, project.id, form)
  const intent = readIntent(form, NoteIntents)
  if (intent) {
    try {
      const message = await handleNoteForm(user, project.id, intent, Object.fromEntries(form), request.signal)
      return json(
        { volume: null, error: null, fieldErrors: null, fields: null, note: null },
        { headers: await createToastHeaders({ title: message, type: 'success' }) },
      )
    } catch (error) {
      if (!(error instanceof DomainError) || error.status >= 500) throw error
      return json(
        {
          volume: null,
          error: null,
          fieldErrors: null,
          fields: null,
          note: { error: error.message, fieldErrors: error.fieldErrors ?? null },
        },
        {
          status:
            error.status === 429 ? 429 : error.status === 404 || error.status === 403 ? error.status : 400,
        },
      )
    }
  }
  try {
    const result = await volumeFromForm(user, project.id, Object.fromEntries(form), request.signal)
    return json({ volume: result, error: null, fieldErrors: null, fields: null, note: null })
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error
    const fields = {
      fileId: String(form.get('fileId') ?? ''),
      coordinates: String(form.get('coordinates') ?? ''),
      base: String(form.get('base') ?? ''),
      baseHeight: String(form.get('baseHeight') ?? ''),
    }
    return json(
      { volume: null, error: error.message, fieldErrors: error.fieldErrors ?? null, fields, note: null },
      { status: error.status === 429 ? 429 : 400 },
    )
  }
}

/** The other forms' answers, empty beside a profile. */
const NO_MEASURE = { volume: null, error: null, fieldErrors: null, fields: null, note: null } as const

/** The no-JS profile form's answer: the figures, or the message with the typed fields kept. */
async function profileAnswer(
  user: Awaited<ReturnType<typeof requireUser>>,
  projectId: number,
  form: FormData,
  signal: AbortSignal,
) {
  try {
    const profile = await profileFromForm(user, projectId, Object.fromEntries(form), signal)
    return json({ ...NO_MEASURE, profile, profileError: null, profileFields: null })
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error
    const profileFields = {
      fileId: String(form.get('fileId') ?? ''),
      coordinates: String(form.get('coordinates') ?? ''),
      samples: String(form.get('samples') ?? ''),
    }
    return json(
      { ...NO_MEASURE, profile: null, profileError: error.message, profileFields },
      { status: error.status === 429 ? 429 : 400 },
    )
  }
}

export default function MapViewPage() {
  const {
    project,
    areas,
    deliverables,
    layers,
    notePage,
    notesVersion,
    reportPolygons,
    reportEarlierSurveys,
    materials,
    tileUrl,
    designSurfaces,
    isAdmin,
    deleteDesignId,
    gis,
  } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  // The profile form's answer (the other forms answer without these keys).
  const profileAnswered =
    actionData && 'profileError' in actionData
      ? (actionData as unknown as {
          profile: ProfileView | null
          profileError: string | null
          profileFields: Record<string, string> | null
        })
      : null
  // The design forms' answers (the other forms answer without these keys).
  const designAnswered =
    actionData && 'cutFillError' in actionData
      ? (actionData as unknown as {
          cutFill: CutFillView | null
          cutFillError: string | null
          cutFillFields: Record<string, string> | null
          designError: string | null
        })
      : null
  const elevationModels = deliverables.filter((d) => d.kind === 'elevation' && !d.removedAt)
  return (
    <AppShell>
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <PageHeading title="Map" subject={project.name} />
          {deliverables.some((d) => (d.kind === 'point_cloud' || d.kind === 'model_3d') && !d.removedAt) ? (
            // A document load: only the 3D page's own Content-Security-Policy lets its WebAssembly run.
            <Link to={`/projects/${project.id}/3d`} reloadDocument className="btn-secondary btn-sm">
              3D view
            </Link>
          ) : null}
        </div>
        <LazyDeliverablesMap
          tileUrl={tileUrl}
          projectId={project.id}
          areas={areas}
          layers={layers}
          notesVersion={notesVersion}
          targetModels={
            isAdmin
              ? elevationModels.flatMap((d) =>
                  d.checkpoints?.proj4 ? [{ id: d.id, fileName: d.fileName, report: d.checkpoints }] : [],
                )
              : undefined
          }
          outlines={designSurfaces.map((d) => ({
            id: d.id,
            name: d.name,
            ring: d.outline.coordinates[0] as [number, number][],
            // The last cut/fill measured against this design, as its colour map.
            overlay:
              designAnswered?.cutFill?.designSurfaceId === d.id
                ? { url: cutFillMapUrl(project.id, designAnswered.cutFill), extent: d.extent }
                : undefined,
          }))}
        />
        <NotesSection
          projectId={project.id}
          page={notePage}
          materials={materials}
          error={actionData?.note?.error ?? null}
          fieldErrors={actionData?.note?.fieldErrors ?? null}
        />
        <DeliverableList deliverables={deliverables} />
        {elevationModels.length ? (
          <VolumeForm
            elevationModels={elevationModels.map((d) => ({ id: d.id, fileName: d.fileName }))}
            result={actionData?.volume ?? null}
            error={actionData?.error ?? null}
            fieldErrors={actionData?.fieldErrors ?? null}
            fields={actionData?.fields ?? null}
          />
        ) : null}
        {elevationModels.length ? (
          <ContourDownloadForm
            models={elevationModels.map((d) => ({
              id: d.id,
              fileName: d.fileName,
              action: contoursUrl(project.id, d.id),
            }))}
          />
        ) : null}
        {elevationModels.length ? (
          <ProfileSection
            models={elevationModels.map((d) => ({ id: d.id, fileName: d.fileName }))}
            result={profileAnswered?.profile ?? null}
            error={profileAnswered?.profileError ?? null}
            fields={profileAnswered?.profileFields ?? null}
          />
        ) : null}
        {elevationModels.length || designSurfaces.length || isAdmin ? (
          <DesignSection
            projectId={project.id}
            designs={designSurfaces}
            models={elevationModels.map((d) => ({ id: d.id, fileName: d.fileName }))}
            isAdmin={isAdmin}
            deleteDesignId={deleteDesignId}
            designError={designAnswered?.designError ?? null}
            result={designAnswered?.cutFill ?? null}
            error={designAnswered?.cutFillError ?? null}
            fields={designAnswered?.cutFillFields ?? null}
          />
        ) : null}
        {elevationModels.length ? (
          <VolumeReportForm
            projectId={project.id}
            elevationModels={elevationModels.map((d) => ({ id: d.id, fileName: d.fileName }))}
            polygons={reportPolygons}
            earlierSurveys={reportEarlierSurveys}
            designs={designSurfaces.map((d) => ({ id: d.id, name: d.name }))}
          />
        ) : null}
        {gis ? <GisSection projectId={project.id} gis={gis} /> : null}
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
