/**
 * A new share link, shown once: the URL as text (selectable without JavaScript) and a Copy button
 * with it; for a link with maps, the WMTS and XYZ addresses a GIS or CAD program opens.
 */
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import type { GisLinks } from '#app/domain/sharing/gis-links.ts'
import { formatDate } from '#app/lib/format/dates.ts'
import { useState } from 'react'

function CopyField({
  id,
  label,
  value,
  copyLabel,
}: {
  id: string
  label: string
  value: string
  copyLabel: string
}) {
  const hydrated = useHydrated()
  const [copied, setCopied] = useState(false)
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={value}
        className="input font-mono text-xs"
        data-testid={id}
        onFocus={(event) => event.currentTarget.select()}
      />
      {hydrated ? (
        <button
          type="button"
          className="btn-secondary btn-sm shrink-0"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true))
          }}
        >
          {copied ? 'Copied' : copyLabel}
        </button>
      ) : null}
    </div>
  )
}

function GisAddresses({ gis }: { gis: GisLinks }) {
  return (
    <div className="mt-3 space-y-2 border-t border-emerald-200 pt-3" data-testid="share-gis-links">
      <p className="text-sm font-semibold text-emerald-900">For QGIS, ArcGIS and CAD</p>
      <p className="text-sm text-emerald-900">
        In QGIS: Layer → Add Layer → Add WMS/WMTS Layer → New, paste the WMTS address, Connect. For one map,
        Browser → XYZ Tiles → New Connection with its XYZ address.
      </p>
      <CopyField id="share-wmts-url" label="WMTS address" value={gis.wmts} copyLabel="Copy WMTS" />
      {gis.xyz.map((map) => (
        <div key={map.fileId} className="space-y-1">
          <p className="text-xs text-emerald-900">XYZ tiles of {map.name}</p>
          <CopyField
            id={`share-xyz-url-${map.fileId}`}
            label={`XYZ tiles of ${map.name}`}
            value={map.url}
            copyLabel="Copy XYZ"
          />
        </div>
      ))}
    </div>
  )
}

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
      {created.gis ? <GisAddresses gis={created.gis} /> : null}
    </div>
  )
}
