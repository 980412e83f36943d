import { getFormProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { CoveragePanel } from '#app/components/coverage/coverage-panel.tsx'
import { projectListQuery } from '#app/components/dashboard/admin/projects-tab.tsx'
import { AdminDialog, DialogActions, formatDate, YesNoBadge } from '#app/components/dashboard/admin/ui.tsx'
import { FileGroups } from '#app/components/files/file-groups.tsx'
import { KEEP_FILES_INTENT, RetentionPanel } from '#app/components/files/retention-panel.tsx'
import { UploadWidget } from '#app/components/files/upload-widget.tsx'
import { SelectField, TextareaField } from '#app/components/forms.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusBadge } from '#app/components/ui/status-badge.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { adminFormFailure } from '#app/domain/admin/form-responses.server.ts'
import { ProjectSaveSchema } from '#app/domain/admin/schemas.ts'
import { listActivePilots } from '#app/domain/admin/users.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { getEnv } from '#app/domain/config/env.server.ts'
import { projectCoverage } from '#app/domain/coverage/coverage.server.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { handleFileIntent, handleUploadForm } from '#app/domain/files/page-actions.server.ts'
import {
  KEEP_FILES_MESSAGES,
  keepProjectFiles,
  retentionStateOf,
} from '#app/domain/files/retention.server.ts'
import { KeepFilesSchema } from '#app/domain/files/retention.ts'
import { formatSaDate } from '#app/domain/format/dates.ts'
import { formatHectares, formatKm, formatRand, formatSquareMetres } from '#app/domain/format/numbers.ts'
import { isDomainError } from '#app/domain/http/domain-error.ts'
import { readFormBody } from '#app/domain/http/form-body.server.ts'
import { assertSameOrigin } from '#app/domain/http/origin.server.ts'
import { pageParam } from '#app/domain/http/query.ts'
import { createToastHeaders, redirectWithToast } from '#app/domain/http/toast.server.ts'
import {
  getProjectForAdmin,
  INVALID_PILOT_MESSAGE,
  saveProjectChanges,
} from '#app/domain/projects/admin-projects.server.ts'
import { FLIGHT_PLAN_UNPARSEABLE } from '#app/domain/projects/flight-plan-summary.ts'
import { projectTypeLabel } from '#app/domain/projects/project-schemas.ts'
import { ADMIN_STATUS_OPTIONS, ADMIN_STATUSES, statusBadge } from '#app/domain/projects/status.ts'
import leafletCss from 'leaflet/dist/leaflet.css'
import type { ReactNode } from 'react'

function closeUrl(url: URL) {
  const keep = projectListQuery({
    q: url.searchParams.get('q') ?? '',
    status: url.searchParams.get('status') ?? '',
    page: pageParam(url.searchParams.get('page')),
  })
  return `/admin?tab=projects${keep ? `&${keep}` : ''}`
}

function loadProject(id: string | undefined) {
  try {
    return getProjectForAdmin(Number(id))
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw new Response('Project not found', { status: 404 })
    throw error
  }
}

/** The coverage check's map is Leaflet. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: leafletCss }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const details = loadProject(params.projectId)
  const coverage = await projectCoverage(admin, details.project.id)
  const pilots = listActivePilots().map((p) => ({
    id: p.id,
    name: `${p.firstName} ${p.lastName}`,
    serviceArea: p.serviceArea,
  }))
  const retention = details.project.completedAt ? retentionStateOf(details.project) : null
  return json({
    ...details,
    pilots,
    retention,
    coverage,
    tileUrl: getEnv().TILE_URL,
    closeTo: closeUrl(new URL(request.url)),
  })
}

/** The 'Keep files' form (ADR 160): its own result key, so the project form keeps its state. */
async function keepFiles(adminId: number, projectId: number, formData: FormData, here: string) {
  const submission = parseWithZod(formData, { schema: KeepFilesSchema })
  const fail = async (status: number, description: string, reply = submission.reply()) =>
    json(
      { keepResult: reply },
      { status, headers: await createToastHeaders({ type: 'error', title: 'Files not kept', description }) },
    )
  if (submission.status !== 'success') return fail(400, 'Check the date and the reason.')
  try {
    const saved = keepProjectFiles(adminId, projectId, submission.value)
    return redirectWithToast(here, {
      title: KEEP_FILES_MESSAGES.saved,
      description: `The files are available until ${formatSaDate(saved.filesKeptUntil!)}.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    return fail(
      error.status,
      error.message,
      submission.reply({
        fieldErrors: error.fieldErrors,
        formErrors: error.fieldErrors ? [] : [error.message],
      }),
    )
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project } = loadProject(params.projectId)
  const back = closeUrl(new URL(request.url))
  const here = `/admin/projects/${project.id}`
  // File uploads stream to disk: they must not be read by request.formData().
  if (isMultipart(request)) {
    assertSameOrigin(request)
    return handleUploadForm(request, admin, 'project_document', here)
  }
  const formData = await readFormBody(request)
  if (formData.get('intent') === 'delete-file') return handleFileIntent(request, admin, formData, here)
  if (formData.get('intent') === KEEP_FILES_INTENT) return keepFiles(admin.id, project.id, formData, here)
  const submission = parseWithZod(formData, { schema: ProjectSaveSchema })
  if (submission.status !== 'success') {
    return adminFormFailure(submission.reply(), 400, 'Failed to save changes', 'Error Saving')
  }
  try {
    const {
      statusChanged,
      pilotChanged,
      project: saved,
    } = await saveProjectChanges(admin.id, project.id, submission.value)
    if (pilotChanged) {
      return redirectWithToast(back, {
        title: 'Pilot Assigned & Emails Sent',
        description: `The job card went to the pilot and the client was notified about "${saved.name}".`,
      })
    }
    if (statusChanged || submission.value.statusMessage) {
      return redirectWithToast(
        back,
        submission.value.statusMessage
          ? {
              title: 'Project Updated & Client Notified',
              description: `"${saved.name}" is now ${statusBadge(saved.status).label}.`,
            }
          : {
              title: 'Project Updated',
              description: `"${saved.name}" is now ${statusBadge(saved.status).label}.`,
            },
      )
    }
    return redirectWithToast(back, { type: 'info', title: 'No Changes', description: 'Nothing was changed.' })
  } catch (error) {
    if (isDomainError(error) && error.message === INVALID_PILOT_MESSAGE) {
      return adminFormFailure(
        submission.reply({ fieldErrors: { pilotId: [error.message] } }),
        400,
        error.message,
        'Error Saving',
      )
    }
    if (isDomainError(error)) {
      return adminFormFailure(
        submission.reply({ fieldErrors: error.fieldErrors ?? {}, formErrors: [error.message] }),
        error.status,
        error.message,
        'Pilot not assigned',
      )
    }
    console.error('[admin] saving project failed', error)
    return adminFormFailure(
      submission.reply({ formErrors: ['Error Saving: Failed to save changes'] }),
      500,
      'Failed to save changes',
      'Error Saving',
    )
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="text-ink-500">{label}</dt>
      <dd className="text-right font-medium text-ink-900">{children}</dd>
    </div>
  )
}

export default function ProjectDialog() {
  const { project, client, pilot, files, flightPlan, pilots, retention, coverage, tileUrl, closeTo } =
    useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const submitting = useIsPending({ state: 'submitting' })
  const editableStatus = (ADMIN_STATUSES as readonly string[]).includes(project.status)
    ? project.status
    : 'pending'
  const [form, fields] = useForm({
    id: `project-form-${project.id}`,
    constraint: getZodConstraint(ProjectSaveSchema),
    lastResult: actionData && 'result' in actionData ? actionData.result : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProjectSaveSchema }),
    defaultValue: {
      status: editableStatus,
      pilotId: project.pilotId ? String(project.pilotId) : '',
      statusMessage: '',
    },
  })
  const here = `/admin/projects/${project.id}`
  const pilotOptions = pilots.map((p) => ({
    value: String(p.id),
    label: `${p.name}${p.serviceArea ? ` — ${p.serviceArea}` : ''}`,
  }))
  if (pilot && !pilots.some((p) => p.id === pilot.id))
    pilotOptions.unshift({ value: String(pilot.id), label: `${pilot.name} (inactive)` })

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
      <div className="grid gap-5 md:grid-cols-2">
        <section aria-labelledby="pd-details" className="rounded-xl border border-ink-100 p-4">
          <h3 id="pd-details" className="mb-2 text-sm font-semibold text-ink-950">
            Details
          </h3>
          <dl className="divide-y divide-ink-100">
            <Row label="Client">
              {client ? `${client.name}${client.companyName ? ` (${client.companyName})` : ''}` : '—'}
            </Row>
            <Row label="E-mail">{client?.email ?? '—'}</Row>
            <Row label="Site">{project.location ?? '—'}</Row>
            <Row label="Type">{projectTypeLabel(project.projectType)}</Row>
            <Row label="Deadline">{project.deadline ?? '—'}</Row>
            <Row label="Created">{formatDate(project.createdAt)}</Row>
            <Row label="Payment">
              <YesNoBadge yes={project.isPaid} yesLabel="Paid" noLabel="Pending" />
            </Row>
            <Row label="Land owner form">
              <YesNoBadge yes={project.landOwnerFormUploaded} yesLabel="Complete" noLabel="Required" />
            </Row>
            <Row label="Pilot">{pilot?.name ?? 'Unassigned'}</Row>
          </dl>
        </section>
        <section aria-labelledby="pd-pricing" className="rounded-xl border border-ink-100 p-4">
          <h3 id="pd-pricing" className="mb-2 text-sm font-semibold text-ink-950">
            Pricing breakdown
          </h3>
          <dl className="divide-y divide-ink-100 tabular-nums">
            <Row label="Area">
              {project.areaSqm
                ? `${formatSquareMetres(project.areaSqm)} (${formatHectares(project.areaSqm)})`
                : '—'}
            </Row>
            <Row label="Nearest hub">
              {project.nearestHub
                ? `${project.nearestHub}${project.distanceFromHub != null ? ` · ${formatKm(project.distanceFromHub)}` : ''}`
                : '—'}
            </Row>
            <Row label="Base price">{formatRand(project.basePrice)}</Row>
            <Row label="Area-adjusted price">{formatRand(project.adjustedPrice)}</Row>
            <Row label="Travel fee">{formatRand(project.travelFee)}</Row>
            <Row label="Aviation fee">{formatRand(project.aviationFee)}</Row>
            <Row label="Subtotal">{formatRand(project.subtotal)}</Row>
            <Row label="VAT">{formatRand(project.vatAmount)}</Row>
            <Row label="Total">{formatRand(project.quoteAmount)}</Row>
          </dl>
          <h3 className="mb-1 mt-4 text-sm font-semibold text-ink-950">Airspace zone</h3>
          <p className="flex items-center gap-2 text-sm text-ink-700">
            {project.airspaceZoneColor ? (
              <span
                aria-hidden="true"
                className="h-3 w-3 rounded-full"
                style={{ backgroundColor: project.airspaceZoneColor }}
              />
            ) : null}
            {project.airspaceZone ?? 'No controlled airspace'}
          </p>
        </section>
      </div>

      <section aria-labelledby="pd-plan" className="mt-5 rounded-xl border border-ink-100 p-4">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h3 id="pd-plan" className="text-sm font-semibold text-ink-950">
            Flight plan
          </h3>
          {flightPlan.status === 'none' ? null : (
            <Link
              to={`/projects/${project.id}/survey`}
              className="text-sm font-medium text-amber-700 hover:underline"
            >
              Survey mission &amp; files
            </Link>
          )}
        </div>
        {flightPlan.status === 'none' ? (
          <p className="text-sm text-ink-500">No flight plan saved yet.</p>
        ) : flightPlan.status === 'unparseable' ? (
          <p className="text-sm text-ink-500">{FLIGHT_PLAN_UNPARSEABLE}</p>
        ) : (
          <ul className="grid gap-2 sm:grid-cols-2">
            {flightPlan.areas.map((a) => (
              <li key={a.areaNumber} className="rounded-lg bg-ink-50 px-3 py-2 text-sm">
                <p className="font-medium">Area {a.areaNumber}</p>
                <p className="text-xs text-ink-600">
                  {a.areaSqm ? formatSquareMetres(a.areaSqm) : 'size not given'} · {a.points} points
                  {a.flightPattern ? ` · ${a.flightPattern}` : ''}
                  {a.returnToBase ? ` · ${a.returnToBase}` : ''}
                </p>
              </li>
            ))}
            {flightPlan.requirements ? (
              <li className="text-sm text-ink-600 sm:col-span-2">Requirements: {flightPlan.requirements}</li>
            ) : null}
          </ul>
        )}
      </section>

      <div className="mt-5">
        <CoveragePanel coverage={coverage} tileUrl={tileUrl} headingId="pd-coverage" />
      </div>

      <section
        aria-labelledby="pd-files"
        className="mt-5 rounded-xl border border-ink-100 p-4"
        data-testid="admin-project-files"
      >
        <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <h3 id="pd-files" className="text-sm font-semibold text-ink-950">
            Files
          </h3>
          {project.status === 'completed' ? (
            <button
              type="button"
              className="btn-secondary btn-sm"
              disabled
              aria-disabled="true"
              title="This project is already completed"
            >
              Complete Project
            </button>
          ) : (
            <Link to={`/admin/projects/${project.id}/complete`} className="btn-primary btn-sm">
              Complete Project
            </Link>
          )}
        </div>
        <FileGroups files={files} canDelete={(f) => !f.removedAt} deleteAction={here} />
        {retention ? (
          <RetentionPanel
            projectId={project.id}
            retention={retention}
            reason={project.filesKeptReason}
            action={here}
            lastResult={actionData && 'keepResult' in actionData ? actionData.keepResult : undefined}
          />
        ) : null}
        <UploadWidget
          projectId={project.id}
          category="project_document"
          multiple
          action={here}
          label="Upload a project file"
          className="mt-4 border-t border-ink-100 pt-4"
        />
      </section>

      <Form
        method="post"
        {...getFormProps(form)}
        className="mt-5 space-y-4 rounded-xl border border-amber-200 bg-amber-50/40 p-4"
      >
        {form.errors?.length ? (
          <Alert tone="error" title="Error Saving">
            {form.errors.join(' ').replace(/^Error Saving: /, '')}
          </Alert>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Status"
            errors={fields.status.errors}
            selectProps={getSelectProps(fields.status)}
            options={ADMIN_STATUS_OPTIONS}
          />
          <SelectField
            label="Assigned pilot"
            hint={
              pilots.length
                ? 'Choosing a different pilot e-mails them the job card and notifies the client.'
                : 'No active pilots. Create or activate one in the Pilots tab.'
            }
            errors={fields.pilotId.errors}
            selectProps={getSelectProps(fields.pilotId)}
            placeholder="Unassigned"
            options={pilotOptions}
          />
        </div>
        <TextareaField
          label="Message to the client (optional)"
          hint="When filled in, the client receives this update by e-mail."
          errors={fields.statusMessage.errors}
          textareaProps={{ ...getTextareaProps(fields.statusMessage), rows: 2 }}
        />
        {project.statusMessage ? (
          <p className="text-xs text-ink-500">Last message: {project.statusMessage}</p>
        ) : null}
        <DialogActions closeTo={closeTo}>
          <StatusButton pending={submitting} pendingLabel="Saving…">
            Save Changes
          </StatusButton>
        </DialogActions>
      </Form>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
