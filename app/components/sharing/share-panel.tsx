/**
 * The Share panel (ADR 233) in the client's project details, the admin's project dialog and
 * on `/projects/{id}/share`: a form to make a link (all or chosen deliverables, downloads
 * allowed or not, expiry) and the links so far with their counts and a Revoke button.
 * Plain posts to `/projects/{id}/share`: the new link is shown there, once.
 */
import { Form } from '@remix-run/react'
import { ErrorList } from '#app/components/forms.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import {
  SHARE_DEFAULT_DAYS,
  SHARE_MAX_DAYS,
  SHARE_MESSAGES,
  type ShareLinkView,
} from '#app/domain/sharing/share-rules.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { plural } from '#app/lib/format/numbers.ts'

const shareAction = (projectId: number) => `/projects/${projectId}/share`

const STATE_BADGES: Record<ShareLinkView['state'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'badge bg-emerald-100 text-emerald-800' },
  expired: { label: 'Expired', className: 'badge bg-ink-100 text-ink-600' },
  revoked: { label: 'Revoked', className: 'badge bg-red-100 text-red-800' },
}

/** "Opened 3 times, last 2 December 2026" / "Not opened yet". */
function openedText(link: Pick<ShareLinkView, 'openCount' | 'lastOpenedAt'>) {
  if (!link.openCount) return 'Not opened yet'
  return `Opened ${link.openCount === 1 ? 'once' : `${plural(link.openCount, 'time')}`}, last ${formatDate(link.lastOpenedAt)}`
}

export function SharePanel({
  projectId,
  deliverables,
  links,
  returnTo,
  errors,
  headingId = `share-${projectId}`,
}: {
  projectId: number
  deliverables: { id: number; name: string }[]
  links: ShareLinkView[]
  /** Where Revoke comes back to (the page the panel is on). */
  returnTo: string
  errors?: { form?: string[]; fileIds?: string[]; expiresInDays?: string[] }
  headingId?: string
}) {
  const action = shareAction(projectId)
  const creating = useIsPending({ formAction: action, intent: 'create-share-link' })
  const revoking = useIsPending({ formAction: action, intent: 'revoke-share-link' })
  return (
    <section
      aria-labelledby={headingId}
      className="mt-5 space-y-4 rounded-lg border border-ink-100 p-4"
      data-testid="share-panel"
    >
      <div>
        <h3 id={headingId} className="text-sm font-semibold uppercase tracking-wide text-ink-500">
          Share
        </h3>
        <p className="mt-1 text-sm text-ink-600">
          A link shows the deliverables to anyone who has it, without an account, until it expires or you
          revoke it.
        </p>
      </div>
      {deliverables.length ? (
        <Form method="post" action={action} className="space-y-3" data-testid="share-form">
          <input type="hidden" name="intent" value="create-share-link" />
          <input type="hidden" name="returnTo" value={returnTo} />
          <fieldset className="space-y-1.5">
            <legend className="label">Files</legend>
            <p className="text-xs text-ink-500">
              Tick files to share only those; none ticked shares them all.
            </p>
            <ul className="space-y-1">
              {deliverables.map((file) => (
                <li key={file.id}>
                  <label className="flex min-w-0 items-center gap-2 text-sm text-ink-800">
                    <input type="checkbox" name="fileIds" value={file.id} />
                    <span className="min-w-0 truncate">{file.name}</span>
                  </label>
                </li>
              ))}
            </ul>
            <ErrorList id={`${headingId}-files-error`} errors={errors?.fileIds} />
          </fieldset>
          <div className="space-y-1">
            <label className="flex items-center gap-2 text-sm text-ink-800">
              <input type="checkbox" name="allowDownload" aria-describedby={`${headingId}-gets`} />
              Allow downloads (otherwise view only)
            </label>
            <label className="flex items-center gap-2 text-sm text-ink-800">
              <input type="checkbox" name="includeNotes" />
              Show the map notes (read only)
            </label>
            <ul id={`${headingId}-gets`} className="list-disc space-y-0.5 pl-5 text-xs text-ink-500">
              <li>{SHARE_MESSAGES.viewOnlyGets}</li>
              <li>{SHARE_MESSAGES.downloadGets}</li>
            </ul>
          </div>
          <div className="max-w-[12rem]">
            <label htmlFor={`${headingId}-days`} className="label">
              Expires after (days)
            </label>
            <input
              id={`${headingId}-days`}
              name="expiresInDays"
              type="number"
              min={1}
              max={SHARE_MAX_DAYS}
              defaultValue={SHARE_DEFAULT_DAYS}
              required
              className="input"
              aria-describedby={errors?.expiresInDays?.length ? `${headingId}-days-error` : undefined}
            />
            <ErrorList id={`${headingId}-days-error`} errors={errors?.expiresInDays} />
          </div>
          <ErrorList id={`${headingId}-form-error`} errors={errors?.form} />
          <StatusButton pending={creating} pendingLabel="Creating…" className="btn-sm">
            Create share link
          </StatusButton>
        </Form>
      ) : (
        <p className="text-sm text-ink-600">There are no deliverables to share.</p>
      )}
      {links.length ? (
        <ul className="divide-y divide-ink-100" data-testid="share-links">
          {links.map((link) => (
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium text-ink-900">
                  <span className={STATE_BADGES[link.state].className}>{STATE_BADGES[link.state].label}</span>
                  {link.fileIds ? plural(link.fileIds.length, 'file') : 'All deliverables'} ·{' '}
                  {link.allowDownload ? 'view and download' : 'view only'}
                </p>
                <p className="text-xs text-ink-500" data-testid="share-link-counts">
                  {openedText(link)} · {plural(link.downloadCount, 'download')} ·{' '}
                  {link.state === 'revoked'
                    ? link.revokedReason === 'project-reopened'
                      ? `stopped ${formatDate(link.revokedAt)}, when the survey was reopened`
                      : `revoked ${formatDate(link.revokedAt)}`
                    : `${link.state === 'expired' ? 'expired' : 'expires'} ${formatDate(link.expiresAt)}`}
                </p>
              </div>
              {link.state === 'active' ? (
                <Form method="post" action={action}>
                  <input type="hidden" name="intent" value="revoke-share-link" />
                  <input type="hidden" name="linkId" value={link.id} />
                  <input type="hidden" name="returnTo" value={returnTo} />
                  <StatusButton
                    pending={revoking}
                    pendingLabel="Revoking…"
                    variant="danger-quiet"
                    className="btn-sm"
                  >
                    Revoke
                  </StatusButton>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
