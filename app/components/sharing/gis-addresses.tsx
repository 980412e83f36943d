/**
 * The addresses a GIS or CAD program opens (a WMTS service and an XYZ template per map), each as
 * selectable text with a Copy button once JavaScript runs.
 */
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import type { GisLinks } from '#app/domain/sharing/gis-links.ts'
import { useState } from 'react'

export function CopyField({
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

/** A WMTS address and an XYZ template per map, each with a copy button, and how to add them in QGIS. */
export function GisAddresses({ gis, idPrefix }: { gis: GisLinks; idPrefix: string }) {
  return (
    <div className="space-y-2" data-testid={`${idPrefix}-gis-links`}>
      <p className="text-sm font-semibold">For QGIS, ArcGIS and CAD</p>
      <p className="text-sm">
        In QGIS: Layer → Add Layer → Add WMS/WMTS Layer → New, paste the WMTS address, Connect. For one map,
        Browser → XYZ Tiles → New Connection with its XYZ address.
      </p>
      <CopyField id={`${idPrefix}-wmts-url`} label="WMTS address" value={gis.wmts} copyLabel="Copy WMTS" />
      {gis.xyz.map((map) => (
        <div key={map.fileId} className="space-y-1">
          <p className="text-xs">XYZ tiles of {map.name}</p>
          <CopyField
            id={`${idPrefix}-xyz-url-${map.fileId}`}
            label={`XYZ tiles of ${map.name}`}
            value={map.url}
            copyLabel="Copy XYZ"
          />
        </div>
      ))}
    </div>
  )
}
