/**
 * The 'Complete Project' dialog: upload the processed
 * deliverables, then complete — the project becomes completed and the client is e-mailed
 * a link to them. Works without JavaScript (multipart upload form, then the button).
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react'
import { AdminDialog } from '#app/components/dashboard/admin/ui.tsx'
import {
  DELIVERABLE_ACCURACY_INTENT,
  DeliverableAccuracyForm,
} from '#app/components/deliverables/deliverable-accuracy-form.tsx'
import { DeliverableCheckpointsForm } from '#app/components/deliverables/deliverable-checkpoints-form.tsx'
import { DeliverableFacts, useViewProgressRefresh } from '#app/components/deliverables/deliverable-facts.tsx'
import {
  DELIVERABLE_KIND_INTENT,
  DeliverableKindForm,
} from '#app/components/deliverables/deliverable-kind-form.tsx'
import { FileGroups } from '#app/components/files/file-groups.tsx'
import { UploadWidget } from '#app/components/files/upload-widget.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { getProjectForAdmin } from '#app/domain/admin/admin-projects.server.ts'
import { requireRole } from '#app/domain/auth/guards.server.ts'
import { completeProject, failedViewingCopies } from '#app/domain/deliverables/complete-project.server.ts'
import {
  DELIVERABLE_MESSAGES,
  hasAccuracyStatement,
  LOW_OVERLAP_PERCENT,
} from '#app/domain/deliverables/deliverable.ts'
import {
  listDeliverables,
  setDeliverableAccuracy,
  setDeliverableKind,
} from '#app/domain/deliverables/deliverables.server.ts'
import { DeliverableAccuracySchema, DeliverableKindSchema } from '#app/domain/deliverables/schemas.ts'
import { listProjectFiles } from '#app/domain/files/file-queries.server.ts'
import { isMultipart } from '#app/domain/files/multipart.server.ts'
import { CATEGORY_ACCEPT } from '#app/domain/files/rules.ts'
import { COMPLETE_MESSAGES, DELIVERABLE_CATEGORY } from '#app/domain/projects/deliverables.ts'
import { formatPercent } from '#app/lib/format/numbers.ts'
import { zodFieldErrors } from '#app/lib/http/api.server.ts'
import { isDomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { intentSchema, readIntent } from '#app/lib/http/intents.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'
import { checkpointFormAnswer, isCheckpointForm } from '#app/routes/_helpers/checkpoint-form.server.ts'
import { handleFileIntent, handleUploadForm } from '#app/routes/_helpers/file-page-actions.server.ts'
import type { User } from '#db/schema.ts'

/** The project (404 when unknown) and its files, as the admin sees them. */
function loadProject(admin: Pick<User, 'id' | 'role'>, id: number) {
  return asPage(() => ({ files: listProjectFiles(admin, id), project: getProjectForAdmin(id).project }))
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const { project, files } = await loadProject(admin, pageId(params.projectId))
  return json({
    project: { id: project.id, name: project.name, status: project.status, isPaid: project.isPaid },
    deliverables: files.filter((f) => f.fileCategory === DELIVERABLE_CATEGORY),
    /** Kind, raster facts and viewing copies (a running job's held outputs too); low coverage is warned about. */
    details: listDeliverables(admin, project.id, undefined, { includeHeld: true }),
    /** Deliverables whose viewing copy failed: completing needs "deliver without them". */
    failed: failedViewingCopies(project.id).map((f) => ({ id: f.id, name: f.name })),
  })
}

/** The page's forms besides completing (which has no intent): a file's deletion, kind and accuracy. */
const CompleteIntents = intentSchema('delete-file', DELIVERABLE_KIND_INTENT, DELIVERABLE_ACCURACY_INTENT)

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, 'admin')
  const projectId = pageId(params.projectId)
  await loadProject(admin, projectId)
  const here = `/admin/projects/${projectId}/complete`
  // A body is read once: the checkpoint form's URL says its reader takes it, not the upload's.
  if (isCheckpointForm(request)) return checkpointFormAnswer(request, admin, projectId, here)
  if (isMultipart(request)) return handleUploadForm(request, admin, DELIVERABLE_CATEGORY, here)
  const formData = await readFormBody(request)
  const intent = readIntent(formData, CompleteIntents)
  if (intent === 'delete-file') return handleFileIntent(request, admin, formData, here)
  if (intent === DELIVERABLE_KIND_INTENT) {
    const parsed = DeliverableKindSchema.safeParse({ kind: formData.get('kind') })
    if (!parsed.success)
      return redirectWithToast(here, { title: DELIVERABLE_MESSAGES.invalidKind, type: 'error' })
    try {
      setDeliverableKind(admin, projectId, Number(formData.get('fileId')), parsed.data.kind)
    } catch (error) {
      if (!isDomainError(error)) throw error
      return redirectWithToast(here, { title: error.message, type: 'error' })
    }
    return redirectWithToast(here, { title: DELIVERABLE_MESSAGES.kindSaved })
  }
  if (intent === DELIVERABLE_ACCURACY_INTENT) {
    const fileId = Number(formData.get('fileId'))
    const clear = formData.get('clear') === '1'
    const parsed = clear ? null : DeliverableAccuracySchema.safeParse(Object.fromEntries(formData))
    if (parsed && !parsed.success)
      return json({ accuracy: { fileId, fieldErrors: zodFieldErrors(parsed.error) } }, { status: 400 })
    try {
      setDeliverableAccuracy(admin, projectId, fileId, parsed ? parsed.data : null)
    } catch (error) {
      if (!isDomainError(error)) throw error
      return redirectWithToast(here, { title: error.message, type: 'error' })
    }
    return redirectWithToast(here, {
      title: clear ? DELIVERABLE_MESSAGES.accuracyCleared : DELIVERABLE_MESSAGES.accuracySaved,
    })
  }
  try {
    const { project, clientNotified } = await completeProject(admin.id, projectId, {
      deliverWithoutFailed: formData.get('deliverWithoutFailed') === 'on',
    })
    return redirectWithToast(`/admin/projects/${projectId}`, {
      title: COMPLETE_MESSAGES.doneTitle,
      description: clientNotified
        ? `"${project.name}" is completed and the client was e-mailed the download link.`
        : `"${project.name}" is completed; the e-mail to the client could not be sent.`,
    })
  } catch (error) {
    if (!isDomainError(error)) throw error
    // A refusal with its own title (no files, a failed viewing copy) says so; others are "failed to complete".
    const title = typeof error.extra.title === 'string' ? error.extra.title : null
    return redirectWithToast(here, {
      title: title ?? COMPLETE_MESSAGES.errorTitle,
      description: title ? error.message : `${COMPLETE_MESSAGES.failed}: ${error.message}`,
      type: 'error',
    })
  }
}

export default function CompleteProjectDialog() {
  const { project, deliverables, details, failed } = useLoaderData<typeof loader>()
  const posted = useActionData<typeof action>()
  const accuracyErrors = posted && 'accuracy' in posted ? posted.accuracy : null
  const checkpointAnswer = posted && 'checkpoints' in posted ? posted.checkpoints : null
  useViewProgressRefresh(details)
  const misplaced = details.filter(
    (d) => !d.removedAt && d.raster?.overlapPercent != null && d.raster.overlapPercent < LOW_OVERLAP_PERCENT,
  )
  const here = `/admin/projects/${project.id}/complete`
  const back = `/admin/projects/${project.id}`
  const pending = useIsPending({ intent: 'complete' })
  const done = project.status === 'completed'
  return (
    <AdminDialog title="Complete Project" description={project.name} closeTo={back}>
      <div className="space-y-4" data-testid="complete-project-dialog">
        {done ? (
          <Alert tone="info" title="Already completed">
            This project is completed; the client has the download link.
          </Alert>
        ) : null}
        {!project.isPaid ? (
          <Alert tone="error" title="Not paid">
            {COMPLETE_MESSAGES.notReady}.
          </Alert>
        ) : null}
        <p className="text-sm text-ink-600">
          Upload the processed deliverables (orthomosaics and elevation models as GeoTIFF, point clouds, 3D
          models and shapefiles as ZIP, KML/KMZ, GeoJSON, DXF, CSV, reports, images, videos), then complete
          the project. The client is e-mailed a link and can download them for one month.
        </p>
        {!done ? (
          <UploadWidget
            projectId={project.id}
            category={DELIVERABLE_CATEGORY}
            accept={CATEGORY_ACCEPT.processed_deliverable}
            multiple
            action={here}
            label="Processed files"
          />
        ) : null}
        <section aria-labelledby="deliverables-heading">
          <h3 id="deliverables-heading" className="text-sm font-semibold text-ink-950">
            Deliverables ({deliverables.length})
          </h3>
          {deliverables.length ? (
            <FileGroups files={deliverables} canDelete={() => !done} deleteAction={here} />
          ) : (
            <p className="mt-1 text-sm text-ink-500">
              {COMPLETE_MESSAGES.noFilesTitle}. {COMPLETE_MESSAGES.noFiles}.
            </p>
          )}
        </section>
        {details.length ? (
          <section aria-labelledby="deliverable-details-heading" className="space-y-2">
            <h3 id="deliverable-details-heading" className="text-sm font-semibold text-ink-950">
              Kinds, viewing copies and accuracy
            </h3>
            <ul className="divide-y divide-ink-100 rounded-lg border border-ink-100">
              {details.map((d) => (
                <li key={d.id} className="space-y-2 p-3" data-testid="deliverable-detail">
                  <p className="truncate text-sm font-medium text-ink-900">{d.fileName}</p>
                  <DeliverableFacts deliverable={d} />
                  {!done ? <DeliverableKindForm deliverable={d} action={here} /> : null}
                  {hasAccuracyStatement(d.kind) ? (
                    <DeliverableAccuracyForm
                      deliverable={d}
                      action={here}
                      errors={accuracyErrors?.fileId === d.id ? accuracyErrors.fieldErrors : undefined}
                    />
                  ) : null}
                  {d.kind === 'elevation' && !d.removedAt ? (
                    <DeliverableCheckpointsForm
                      deliverable={d}
                      action={here}
                      answer={checkpointAnswer?.fileId === d.id ? checkpointAnswer : undefined}
                    />
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {!done && misplaced.length ? (
          <Alert tone="warning" title="Check the deliverables" id="overlap-warning">
            <ul className="list-disc space-y-1 pl-4">
              {misplaced.map((d) => (
                <li key={d.id}>
                  {d.fileName}:{' '}
                  {DELIVERABLE_MESSAGES.lowOverlap(d.kind, formatPercent(d.raster!.overlapPercent))}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
        {!done && failed.length ? (
          <Alert tone="error" title={COMPLETE_MESSAGES.failedViewsTitle} id="failed-views">
            {COMPLETE_MESSAGES.failedViews(failed.map((f) => f.name))}.
          </Alert>
        ) : null}
        <Form
          method="post"
          action={here}
          className="flex flex-col gap-3 border-t border-ink-100 pt-4"
          aria-describedby={!done && failed.length ? 'failed-views' : undefined}
        >
          <input type="hidden" name="intent" value="complete" />
          {!done && failed.length ? (
            <label className="flex items-start gap-2 text-sm text-ink-700">
              <input
                type="checkbox"
                name="deliverWithoutFailed"
                className="mt-0.5"
                data-testid="deliver-without-failed"
              />
              <span>{COMPLETE_MESSAGES.deliverWithoutFailed}</span>
            </label>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Link to={back} preventScrollReset className="btn-secondary">
              Cancel
            </Link>
            <StatusButton
              pending={pending}
              pendingLabel="Completing…"
              disabled={done}
              className="w-full sm:w-auto"
            >
              Complete Project
            </StatusButton>
          </div>
        </Form>
      </div>
    </AdminDialog>
  )
}

export { AdminDialogErrorBoundary as ErrorBoundary } from '#app/components/dashboard/admin/ui.tsx'
