/**
 * /projects/$projectId/3d — the 3D view of a project's model and point clouds, for who may see
 * its Map view (client, assigned pilot, admins; anyone else 404). With JavaScript: the canvas
 * (its code fetched by this page alone). Always: the still image (no-JS), the facts, the downloads.
 */
import { json, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageHeading } from '#app/components/layout/page-heading.tsx'
import { ThreeDPageBody } from '#app/components/threed/three-d-sections.tsx'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { loadThreeDView, signedInRoutes } from '#app/domain/deliverables/three-d-view.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · 3D · Kestrel` : '3D · Kestrel' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const view = await asPage(() => loadThreeDView(user, pageId(params.projectId)))
  // The first browser of the owner or an admin that draws the view leaves the still image
  // the no-JS page and share links show.
  const { mayLeaveStill, ...data } = view
  const stillUploadUrl = mayLeaveStill && !view.stillUrl ? signedInRoutes(view.project.id).still : null
  return json({ ...data, stillUploadUrl })
}

export default function ThreeDPage() {
  const data = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <ThreeDPageBody
        data={data}
        stillUploadUrl={data.stillUploadUrl}
        header={
          <div className="flex flex-wrap items-end justify-between gap-3">
            <PageHeading title="3D view" subject={data.project.name} />
            <Link to={`/projects/${data.project.id}/map`} className="btn-secondary btn-sm">
              Map view
            </Link>
          </div>
        }
      />
    </AppShell>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
