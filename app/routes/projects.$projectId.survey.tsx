/**
 * /projects/$projectId/survey — a project's survey mission: the final numbers
 * for the owning client; for the admin and the assigned pilot also the form that adjusts
 * drone, GSD, overlaps and angle, and the mission files. Anyone else: 404.
 */
import { getFormProps, getSelectProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod'
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, useActionData, useLoaderData } from '@remix-run/react'
import { Field } from '#app/components/forms.tsx'
import { numberInputProps } from '#app/components/forms/number-input-props.ts'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { AppShell } from '#app/components/layout/app-shell.tsx'
import { GeneralErrorBoundary } from '#app/components/layout/error-boundary.tsx'
import { PageHeading } from '#app/components/layout/page-heading.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { requireUser } from '#app/domain/auth/guards.server.ts'
import { requireVisibleProject } from '#app/domain/projects/access.server.ts'
import { adjustSurveyPlan, canAdjustSurvey } from '#app/domain/projects/survey-plan.server.ts'
import { djiWpmlDrone } from '#app/domain/survey/dji-wpml-drones.ts'
import { listDroneProfiles } from '#app/domain/survey/drone-profiles.server.ts'
import { CLIENT_EXPORT_FORMATS, EXPORT_FORMATS } from '#app/domain/survey/export-formats.server.ts'
import { MISSION_FILE_LABELS } from '#app/domain/survey/mission-files.ts'
import { currentSurveyPlan } from '#app/domain/survey/project-plan.server.ts'
import { AdjustSurveySchema, formatFlightTime } from '#app/domain/survey/project-plan.ts'
import { formatKm, formatNumber } from '#app/lib/format/numbers.ts'
import { DomainError } from '#app/lib/http/domain-error.ts'
import { readFormBody } from '#app/lib/http/form-body.server.ts'
import { asPage, pageId } from '#app/lib/http/page-errors.server.ts'
import { redirectWithToast } from '#app/lib/http/toast.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.project.name} · Survey mission · Kestrel` : 'Survey mission · Kestrel' },
]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request)
  const project = await asPage(() => requireVisibleProject(user, pageId(params.projectId)))
  const plan = currentSurveyPlan(project)
  const canAdjust = canAdjustSurvey(user, project)
  return json({
    project: { id: project.id, name: project.name, projectType: project.projectType },
    plan,
    canAdjust,
    drones: canAdjust
      ? listDroneProfiles({ activeOnly: true }).map((d) => ({ value: String(d.id), label: d.name }))
      : [],
    // No DJI KMZ for a drone DJI Pilot 2 cannot fly.
    exports: (user.role === 'client' ? CLIENT_EXPORT_FORMATS : EXPORT_FORMATS)
      .filter((f) => f !== 'kmz' || (plan && djiWpmlDrone(plan.settings.drone.name)))
      .map((f) => ({ format: f, label: MISSION_FILE_LABELS[f] })),
  })
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request)
  const project = await asPage(() => requireVisibleProject(user, pageId(params.projectId)))
  if (!canAdjustSurvey(user, project)) throw new Response('Project not found', { status: 404 })
  const submission = parseWithZod(await readFormBody(request), { schema: AdjustSurveySchema })
  if (submission.status !== 'success') return json({ result: submission.reply() }, { status: 400 })
  try {
    const plan = adjustSurveyPlan(user, project.id, submission.value)
    return redirectWithToast(`/projects/${project.id}/survey`, {
      title: 'Survey plan updated',
      description: `${plan.summary.photoCount} photos, ${formatFlightTime(plan.summary.flightTimeS)} of flight.`,
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return json(
      {
        result: submission.reply({
          formErrors: error.fieldErrors ? undefined : [error.message],
          fieldErrors: error.fieldErrors,
        }),
      },
      { status: error.status },
    )
  }
}

export default function SurveyMissionPage() {
  const { project, plan, canAdjust, drones, exports } = useLoaderData<typeof loader>()
  return (
    <AppShell>
      <main className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:px-6">
        <PageHeading title="Survey mission" subject={project.name} />
        {plan ? (
          <>
            <section className="card p-4 sm:p-6">
              <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500">
                Mission figures
              </h2>
              <table className="w-full text-sm" data-testid="survey-figures">
                <tbody className="divide-y divide-ink-100">
                  {[
                    ['Drone', plan.settings.drone.name],
                    ['Ground resolution', `${formatNumber(plan.summary.gsdCm, 1, { minDecimals: 0 })} cm/px`],
                    [
                      'Flight altitude',
                      `${formatNumber(plan.summary.altitudeM, 1, { minDecimals: 0 })} m AGL`,
                    ],
                    [
                      'Overlap (front / side)',
                      `${plan.settings.frontOverlap} % / ${plan.settings.sideOverlap} %`,
                    ],
                    [
                      'Grid angle',
                      plan.settings.angleDeg === null
                        ? 'Along each area’s longest side'
                        : `${plan.settings.angleDeg}°`,
                    ],
                    ['Flight lines', formatNumber(plan.summary.lineCount)],
                    ['Photos', formatNumber(plan.summary.photoCount)],
                    ['Flight path', formatKm(plan.summary.pathLengthM / 1000)],
                    ['Flight time', formatFlightTime(plan.summary.flightTimeS)],
                    ['Batteries', String(plan.summary.batteries)],
                  ].map(([label, value]) => (
                    <tr key={label}>
                      <th scope="row" className="py-2 pr-3 text-left font-normal text-ink-600">
                        {label}
                      </th>
                      <td className="py-2 text-right font-semibold tabular-nums text-ink-900">{value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {plan.summary.warnings.length ? (
                <ul className="mt-3 space-y-1 text-sm text-amber-800">
                  {plan.summary.warnings.map((w) => (
                    <li key={w}>⚠ {w}</li>
                  ))}
                </ul>
              ) : null}
            </section>
            <section className="card p-4 sm:p-6">
              <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500">
                Mission files
              </h2>
              <ul className="flex flex-wrap gap-2">
                {exports.map((e) => (
                  <li key={e.format}>
                    <a
                      href={`/api/projects/${project.id}/export/${e.format}`}
                      className="btn-secondary btn-sm"
                      download
                    >
                      {e.label}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
            {canAdjust ? <AdjustForm plan={plan} drones={drones} /> : null}
          </>
        ) : (
          <Alert tone="info">This project has no survey areas yet.</Alert>
        )}
      </main>
    </AppShell>
  )
}

function AdjustForm({
  plan,
  drones,
}: {
  plan: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>['plan']>
  drones: Array<{ value: string; label: string }>
}) {
  const actionData = useActionData<typeof action>()
  const saving = useIsPending({ state: 'submitting' })
  const [form, fields] = useForm({
    id: 'survey-adjust',
    lastResult: actionData?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AdjustSurveySchema }),
    shouldValidate: 'onBlur',
    defaultValue: {
      droneProfileId: plan.settings.droneProfileId ? String(plan.settings.droneProfileId) : '',
      gsdCm: String(plan.settings.gsdCm),
      frontOverlap: String(plan.settings.frontOverlap),
      sideOverlap: String(plan.settings.sideOverlap),
      angleDeg: plan.settings.angleDeg === null ? '' : String(plan.settings.angleDeg),
    },
  })
  return (
    <section className="card p-4 sm:p-6">
      <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-ink-500">Adjust the plan</h2>
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        {form.errors?.length ? <Alert tone="error">{form.errors.join(' ')}</Alert> : null}
        <SelectField
          labelProps={{ children: 'Drone' }}
          selectProps={getSelectProps(fields.droneProfileId)}
          errors={fields.droneProfileId.errors}
          options={drones}
          placeholder="Choose a drone"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: 'Ground resolution (cm/px)' }}
            errors={fields.gsdCm.errors}
            inputProps={numberInputProps(fields.gsdCm)}
          />
          <Field
            labelProps={{ children: 'Grid angle (°, blank: longest side)' }}
            errors={fields.angleDeg.errors}
            inputProps={numberInputProps(fields.angleDeg)}
          />
          <Field
            labelProps={{ children: 'Front overlap (%)' }}
            errors={fields.frontOverlap.errors}
            inputProps={numberInputProps(fields.frontOverlap)}
          />
          <Field
            labelProps={{ children: 'Side overlap (%)' }}
            errors={fields.sideOverlap.errors}
            inputProps={numberInputProps(fields.sideOverlap)}
          />
        </div>
        <div className="flex justify-end">
          <StatusButton pending={saving} pendingLabel="Saving…">
            Save Plan
          </StatusButton>
        </div>
      </Form>
    </section>
  )
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />
}
