/** The photo check above the Process form: what the photos hold, and each problem, photo by photo. */
import {
  MIN_PHOTOS_WITH_GPS,
  OUTSIDE_MARGIN_M,
  PHOTO_CHECK_MESSAGES,
  type PhotoCheck,
} from '#app/domain/processing/photo-check.ts'
import { formatNumber, plural } from '#app/lib/format/numbers.ts'

export function PhotoCheckList({ check }: { check: PhotoCheck }) {
  const clean = !check.refusal && !check.problems.length
  return (
    <div
      className={`mt-3 rounded-lg p-3 text-sm ${clean ? 'bg-emerald-50' : 'bg-amber-50'}`}
      data-testid="photo-check"
    >
      <p className="font-medium text-ink-950">Photo check</p>
      <p className="text-xs text-ink-600">
        {plural(check.photoCount, 'photo')}, {formatNumber(check.withGps)} with a GPS position
        {check.hasGcp ? '; ground control points (gcp_list.txt) uploaded' : ''}. Photos are checked for a
        position and for being within {formatNumber(OUTSIDE_MARGIN_M)} m of the survey areas; at least{' '}
        {MIN_PHOTOS_WITH_GPS} placed photos are needed.
      </p>
      {check.refusal ? (
        <p className="mt-2 font-medium text-red-700" role="alert" data-testid="photo-check-refusal">
          {check.refusal}
        </p>
      ) : null}
      {check.problems.length ? (
        <>
          <p className="mt-2 text-ink-900">{PHOTO_CHECK_MESSAGES.problems(check.problemCount)}.</p>
          <ul
            className="mt-1 max-h-48 space-y-0.5 overflow-auto text-xs text-ink-800"
            data-testid="photo-check-problems"
          >
            {check.problems.map((p, i) => (
              <li key={`${p.photo ?? ''}-${i}`}>
                {p.photo ? <span className="font-mono">{p.photo}</span> : null}
                {p.photo ? ': ' : ''}
                {p.problem}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {clean ? <p className="mt-1 text-xs text-emerald-800">No problems found.</p> : null}
    </div>
  )
}
