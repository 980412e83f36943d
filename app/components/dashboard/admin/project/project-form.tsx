/** The admin's project form: status, assigned pilot and an optional message to the client. */
import {
  getFormProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form } from '@remix-run/react'
import { DialogActions } from '#app/components/dashboard/admin/ui.tsx'
import { TextareaField } from '#app/components/forms.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import { ProjectSaveSchema } from '#app/domain/admin/schemas.ts'
import { ADMIN_STATUS_OPTIONS, ADMIN_STATUSES } from '#app/domain/projects/status.ts'

import type { ProjectDialogData } from './types.ts'

export function ProjectForm({
  project,
  pilot,
  pilots,
  closeTo,
  lastResult,
}: Pick<ProjectDialogData, 'project' | 'pilot' | 'pilots'> & {
  closeTo: string
  lastResult: SubmissionResult<string[]> | undefined
}) {
  const submitting = useIsPending({ state: 'submitting' })
  const editableStatus = (ADMIN_STATUSES as readonly string[]).includes(project.status)
    ? project.status
    : 'pending'
  const [form, fields] = useForm({
    id: `project-form-${project.id}`,
    constraint: getZodConstraint(ProjectSaveSchema),
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ProjectSaveSchema }),
    defaultValue: {
      status: editableStatus,
      pilotId: project.pilotId ? String(project.pilotId) : '',
      statusMessage: '',
    },
  })
  const pilotOptions = pilots.map((p) => ({
    value: String(p.id),
    label: `${p.name}${p.serviceArea ? ` — ${p.serviceArea}` : ''}`,
  }))
  if (pilot && !pilots.some((p) => p.id === pilot.id))
    pilotOptions.unshift({ value: String(pilot.id), label: `${pilot.name} (inactive)` })

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="mt-5 space-y-4 rounded-xl border border-amber-200 bg-amber-50/40 p-4"
    >
      {form.errors?.length ? (
        <Alert tone="error" title="Error Saving">
          {form.errors.join(' ').replace(/^Error Saving: /, '')}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          labelProps={{ children: 'Status' }}
          selectProps={getSelectProps(fields.status)}
          errors={fields.status.errors}
          options={ADMIN_STATUS_OPTIONS}
        />
        <SelectField
          labelProps={{ children: 'Assigned pilot' }}
          hint={
            pilots.length
              ? 'Choosing a different pilot e-mails them the job card and notifies the client.'
              : 'No active pilots. Create or activate one in the Pilots tab.'
          }
          selectProps={getSelectProps(fields.pilotId)}
          errors={fields.pilotId.errors}
          placeholder="Unassigned"
          options={pilotOptions}
        />
      </div>
      <TextareaField
        labelProps={{ children: 'Message to the client (optional)' }}
        hint="When filled in, the client receives this update by e-mail."
        errors={fields.statusMessage.errors}
        textareaProps={{ ...getTextareaProps(fields.statusMessage), rows: 2 }}
      />
      {project.statusMessage ? (
        <p className="text-xs text-ink-500">Last message: {project.statusMessage}</p>
      ) : null}
      <DialogActions closeTo={closeTo}>
        <StatusButton pending={submitting} pendingLabel="Saving…">
          Save Changes
        </StatusButton>
      </DialogActions>
    </Form>
  )
}
