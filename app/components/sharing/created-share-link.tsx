/**
 * A new share link, shown once: the URL as text (selectable without JavaScript) and a Copy button
 * with it; for a link with maps, the WMTS and XYZ addresses a GIS or CAD program opens.
 */
import type { GisLinks } from '#app/domain/sharing/gis-links.ts'
import { formatDate } from '#app/lib/format/dates.ts'

import { CopyField, GisAddresses } from './gis-addresses.tsx'

export function CreatedShareLink({
  created,
}: {
  created: { url: string; expiresAt: string; allowDownload: boolean; gis?: GisLinks | null }
}) {
  return (
    <div
      className="mt-5 space-y-2 rounded-lg border border-emerald-200 bg-emerald-50 p-4"
      role="status"
      data-testid="created-share-link"
    >
      <p className="text-sm font-semibold text-emerald-900">
        Your new link ({created.allowDownload ? 'view and download' : 'view only'}, until{' '}
        {formatDate(created.expiresAt)})
      </p>
      <p className="text-sm text-emerald-900">Copy it now: for your security it is not shown again.</p>
      <CopyField id="created-share-url" label="Share link" value={created.url} copyLabel="Copy link" />
      {created.gis ? (
        <div className="mt-3 border-t border-emerald-200 pt-3 text-emerald-900">
          <GisAddresses gis={created.gis} idPrefix="share" />
        </div>
      ) : null}
    </div>
  )
}
