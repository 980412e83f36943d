/** An elevation model's Contours switch and interval picker in the layer list, with what drawing came to. */
import type { MapLayer } from '#app/domain/deliverables/map-view.server.ts'
import { formatNumber } from '#app/lib/format/numbers.ts'

import { intervalLabel } from './contour-intervals.ts'
import type { ContourView } from './use-contours.ts'

function ContourStatusLine({ contours, layerId }: { contours: ContourView; layerId: number }) {
  const status = contours.status[layerId]
  if (!status || !contours.shownOf(layerId)) return null
  if (status.kind === 'drawing') return <p className="mt-1 text-xs text-ink-600">Drawing the contours…</p>
  if (status.kind === 'error') return <p className="mt-1 text-xs text-red-700">{status.message}</p>
  return (
    <p className="mt-1 text-xs text-ink-600" data-testid="contour-count">
      {`${formatNumber(status.lines)} lines, ${formatNumber(status.indexLines)} of them index lines (labelled)`}
    </p>
  )
}

export function ContourControls({ contours, layer }: { contours: ContourView; layer: MapLayer }) {
  const shown = contours.shownOf(layer.id)
  const interval = contours.intervalOf(layer.id)
  const choices = contours.choicesOf(layer)
  return (
    <div className="mt-2 border-t border-ink-100 pt-2" data-testid="contour-controls">
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-ink-700">
        <label className="flex items-center gap-2 font-medium text-ink-900">
          <input
            type="checkbox"
            checked={shown}
            onChange={(e) => contours.onToggle(layer.id, e.target.checked)}
          />
          Contours<span className="sr-only"> of {layer.fileName}</span>
        </label>
        <label className="flex items-center gap-1.5">
          every
          <select
            className="input py-0.5 text-xs"
            value={interval}
            aria-label={`Contour interval of ${layer.fileName}`}
            onChange={(e) => contours.onInterval(layer.id, Number(e.target.value))}
          >
            {(choices.includes(interval) ? choices : [...choices, interval]).map((choice) => (
              <option key={choice} value={choice}>
                {intervalLabel(choice)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div aria-live="polite">
        <ContourStatusLine contours={contours} layerId={layer.id} />
      </div>
    </div>
  )
}
