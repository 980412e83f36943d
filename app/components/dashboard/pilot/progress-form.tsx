/**
 * 'Save Project Progress' on the pilot dashboard: flight duration as hours (0–12) and
 * minutes (0–59). A plain form posted to the dashboard (works without JavaScript); with
 * it, conform checks the same schema first.
 */
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { ErrorList, Field } from '#app/components/forms.tsx'
import { numberInputProps } from '#app/components/forms/number-input-props.ts'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { FlightDurationFormSchema, MAX_FLIGHT_HOURS, MAX_FLIGHT_MINUTES } from '#app/domain/pilot/schemas.ts'

export function ProgressForm({ projectId, action }: { projectId: number; action: string }) {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>()
  const navigation = useNavigation()
  const pending = useIsPending({ intent: 'save-progress' })
  const [form, fields] = useForm({
    id: `progress-form-${projectId}`,
    constraint: getZodConstraint(FlightDurationFormSchema),
    lastResult:
      actionData?.intent === 'save-progress' && navigation.state === 'idle' ? actionData.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: FlightDurationFormSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
  })
  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="space-y-3"
      {...getFormProps(form)}
      data-testid="progress-form"
    >
      <input type="hidden" name="intent" value="save-progress" />
      <input type="hidden" name="projectId" value={projectId} />
      <fieldset>
        <legend className="text-sm font-semibold text-ink-950">Flight duration</legend>
        <p className="text-xs text-ink-500">
          Time in the air for this visit; it is added to the project’s flight hours.
        </p>
        <div className="mt-2 grid grid-cols-2 gap-3">
          {(
            [
              ['Hours', fields.hours, MAX_FLIGHT_HOURS],
              ['Minutes', fields.minutes, MAX_FLIGHT_MINUTES],
            ] as const
          ).map(([label, field, max]) => (
            <Field
              key={label}
              labelProps={{ children: label }}
              errors={field.errors}
              inputProps={numberInputProps(field, {
                min: 0,
                max,
                step: 1,
                inputMode: 'numeric',
                placeholder: '0',
              })}
            />
          ))}
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
      </fieldset>
      <StatusButton pending={pending} pendingLabel="Saving…" className="w-full sm:w-auto">
        Save Project Progress
      </StatusButton>
    </Form>
  )
}
