/**
 * The admin's checkpoint targets beside the map: per elevation model with a checkpoint report,
 * its horizontal RMSE and each checkpoint's button to place its target by a click on the map.
 */
import { cm } from '#app/domain/deliverables/deliverable.ts'
import { plural } from '#app/lib/format/numbers.ts'

import type { CheckpointTargets } from './use-checkpoint-targets.ts'

export function CheckpointTargetsPanel({ targets }: { targets: CheckpointTargets }) {
  return (
    <section
      aria-labelledby="checkpoint-targets-heading"
      className="card space-y-2 p-4"
      data-testid="checkpoint-targets"
    >
      <h2 id="checkpoint-targets-heading" className="text-base font-semibold text-ink-950">
        Checkpoint targets
      </h2>
      <p className="text-xs text-ink-600">
        Choose a checkpoint, then click where its target shows on the orthomosaic: the horizontal RMSE is
        measured from the targets placed. Without JavaScript, give map_easting,map_northing columns in the
        checkpoint CSV.
      </p>
      {targets.models.map((model) => (
        <div key={model.id} className="space-y-1">
          <h3 className="break-words text-sm font-medium text-ink-900">{model.fileName}</h3>
          <p className="text-sm text-ink-700" data-testid="targets-horizontal-rmse">
            {model.report.horizontalRmseM === null
              ? 'Horizontal RMSE: no target placed yet'
              : `Horizontal RMSE ${cm(model.report.horizontalRmseM)} (${plural(model.report.horizontalCount, 'target')})`}
          </p>
          <ul className="max-h-60 space-y-1 overflow-y-auto">
            {model.report.points.map((point, i) => {
              const pressed = targets.armed?.fileId === model.id && targets.armed.pointId === point.id
              return (
                <li key={`${point.id}-${i}`} className="flex items-center justify-between gap-2 text-sm">
                  <span className="break-all">
                    {point.id}
                    {point.horizontalErrorM !== null ? (
                      <span className="text-ink-500"> · {cm(point.horizontalErrorM)}</span>
                    ) : null}
                  </span>
                  <button
                    type="button"
                    aria-pressed={pressed}
                    disabled={targets.busy}
                    onClick={() => targets.onArm(model.id, point.id)}
                    className={pressed ? 'btn-primary btn-sm' : 'btn-secondary btn-sm'}
                  >
                    {pressed ? `Click the map for ${point.id}` : `Place ${point.id}`}
                  </button>
                </li>
              )
            })}
          </ul>
        </div>
      ))}
      <p role="status" className="text-sm text-ink-700">
        {targets.busy ? 'Saving the target…' : null}
      </p>
      {targets.error ? (
        <p role="alert" className="text-sm text-red-700">
          {targets.error}
        </p>
      ) : null}
    </section>
  )
}
