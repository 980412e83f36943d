/**
 * /admin/projects/:projectId — the admin's project dialog (a route, so it works without
 * JavaScript): details, pricing, flight plan, coverage, files and the project form.
 */
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { CoveragePanel } from '#app/components/coverage/coverage-panel.tsx'
import { FlightPlanSection } from '#app/components/dashboard/admin/project/flight-plan-section.tsx'
import { ProjectFilesSection } from '#app/components/dashboard/admin/project/project-files-section.tsx'
import { ProjectForm } from '#app/components/dashboard/admin/project/project-form.tsx'
import { ProjectSummary } from '#app/components/dashboard/admin/project/project-summary.tsx'
import { projectListQuery } from '#app/components/dashboard/admin/projects-tab.tsx'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import { KEEP_FILES_INTENT } from '#app/components/files/retention-panel.tsx'
import { ProcessingPanel } from '#app/components/processing/processing-panel.tsx'
import { DownloadAllLink } from '#app/components/sharing/download-all-link.tsx'
import { SharePanel } from '#app/components/sharing/share-panel.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { processingPanelData } from '#app/domain/processing/processing-panel.server.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { assertSameOrigin } from '#app/lib/http/origin.server.ts'
import { pageId } from '#app/lib/http/page-errors.server.ts'
import { pageParam } from '#app/lib/http/query.ts'
import {
  adminProjectDialog,
  keepFilesForm,
  loadAdminProject,
  saveProjectForm,
} from '#app/routes/_helpers/admin-project-dialog.server.ts'
import { handleFileIntent, handleUploadForm } from '#app/routes/_helpers/file-page-actions.server.ts'
import leafletCss from 'leaflet/dist/leaflet.css'

/** Back to the projects list, keeping its search, filter and page. */
function closeUrl(url: URL) {
  const keep = projectListQuery({
    q: url.searchParams.get('q') ?? '',
    status: url.searchParams.get('status') ?? '',
    page: pageParam(url.searchParams.get('page')),
  })
  return `/admin?tab=projects${keep ? `&${keep}` : ''}`
}

/** The coverage check's map is Leaflet. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: leafletCss }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const dialog = await adminProjectDialog(admin, pageId(params.projectId))
  const processing = await processingPanelData(dialog.project.id)
  return json({ ...dialog, processing, closeTo: closeUrl(new URL(request.url)) })
}

/** The dialog's forms besides the project form (which has no intent). */
const ProjectIntents = intentSchema('delete-file', KEEP_FILES_INTENT)

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project } = await loadAdminProject(pageId(params.projectId))
  const here = `/admin/projects/${project.id}`
  // File uploads stream to disk: they must not be read by request.formData().
  if (isMultipart(request)) {
    assertSameOrigin(request)
    return handleUploadForm(request, admin, 'project_document', here)
  }
  const formData = await readFormBody(request)
  const intent = readIntent(formData, ProjectIntents)
  if (intent === 'delete-file') return handleFileIntent(request, admin, formData, here)
  if (intent === KEEP_FILES_INTENT) return keepFilesForm(admin.id, project.id, formData, here)
  return saveProjectForm(admin.id, project.id, formData, closeUrl(new URL(request.url)))
}

export default function ProjectDialog() {
  const data = useLoaderData<typeof loader>()
  const { project, client, pilot, flightPlan, pilots, coverage, share, tileUrl, closeTo } = data
  const actionData = useActionData<typeof action>()
  // The dialog's two forms answer differently: keeping files gives `keepResult`, the project form `result`.
  const keepResult = actionData && 'keepResult' in actionData ? actionData.keepResult : undefined
  const result = actionData && 'result' in actionData ? actionData.result : undefined
  const here = `/admin/projects/${project.id}`

  return (
    <AdminDialog
      title={project.name}
      description={
        <>
          Project #{project.id} · <StatusBadge status={project.status} />
        </>
      }
      closeTo={closeTo}
      wide
    >
      <ProjectSummary project={project} client={client} pilot={pilot} />
      <FlightPlanSection projectId={project.id} flightPlan={flightPlan} />
      <div className="mt-5">
        <CoveragePanel coverage={coverage} tileUrl={tileUrl} headingId="pd-coverage" />
      </div>
      <ProcessingPanel
        {...data.processing}
        projectId={project.id}
        action={`${here}/processing`}
        refreshTo={`${here}#pd-processing`}
      />
      {/* The files section reads the dialog's project, files and retention from the loader data. */}
      <ProjectFilesSection {...data} action={here} keepResult={keepResult} />
      {share.deliverables.length ? (
        <>
          <DownloadAllLink projectId={project.id} />
          <SharePanel
            projectId={project.id}
            deliverables={share.deliverables}
            links={share.links}
            returnTo={here}
            headingId="pd-share"
          />
        </>
      ) : null}
      <ProjectForm project={project} pilot={pilot} pilots={pilots} closeTo={closeTo} lastResult={result} />
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
