/**
 * /projects/$projectId/map — the Map view of a project's deliverables, for its client, the
 * assigned pilot and admins (anyone else: 404). With JavaScript: the interactive map
 * (loaded only here). Always: the preview images with their footprint (no-JS), the
 * metadata table, the downloads and a volume form that takes typed corners.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageHeading } from '#app/components/layout/page-heading.tsx'
import { LazyDeliverablesMap } from '#app/components/mapview/lazy-deliverables-map.tsx'
import { DeliverableList, VolumeForm } from '#app/components/mapview/map-view-sections.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { getEnv } from '#app/domain/config/env.server.ts'
import { loadMapView, volumeFromForm } from '#app/domain/deliverables/map-view.server.ts'
import { DomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { asPage, pageId } from '#app/domain/http/page-errors.server.ts'

export { deliverablesMapLinks as links } from '#app/components/mapview/lazy-deliverables-map.tsx'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Map · Kestrel` : 'Map · Kestrel' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  return json({
    ...(await asPage(() => loadMapView(user, pageId(params.projectId)))),
    tileUrl: getEnv().TILE_URL,
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const { project } = await asPage(() => loadMapView(user, pageId(params.projectId)))
  const form = await readFormBody(request)
  try {
    const result = await volumeFromForm(user, project.id, Object.fromEntries(form), request.signal)
    return json({ volume: result, error: null, fieldErrors: null, fields: null })
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error
    const fields = {
      fileId: String(form.get('fileId') ?? ''),
      coordinates: String(form.get('coordinates') ?? ''),
      base: String(form.get('base') ?? ''),
      baseHeight: String(form.get('baseHeight') ?? ''),
    }
    return json(
      { volume: null, error: error.message, fieldErrors: error.fieldErrors ?? null, fields },
      { status: error.status === 429 ? 429 : 400 },
    )
  }
}

export default function MapViewPage() {
  const { project, areas, deliverables, layers, tileUrl } = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const elevationModels = deliverables.filter((d) => d.kind === 'elevation' && !d.removedAt)
  return (
    <AppShell>
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-6 sm:px-6 sm:py-8">
        <PageHeading title="Map" subject={project.name} />
        <LazyDeliverablesMap tileUrl={tileUrl} projectId={project.id} areas={areas} layers={layers} />
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
      </main>
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
