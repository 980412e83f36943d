/**
 * Create Project: name, type, flight location (South Africa),
 * deadline, description, special requirements → 'Continue to Flight Planning'.
 *
 * The location search works without JavaScript: the Search button submits this form as
 * a GET to /dashboard (`?tab=create&q=…` plus what was typed so far), and the server
 * lists the matches as radio choices. With JavaScript the same search runs as you type
 * (`/api/places`) and a pick fills the address and coordinates. Manual entry is always
 * possible.
 */
import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod'
import { Form, useActionData, useNavigation, useSearchParams } from '@remix-run/react'
import { ErrorList, Field, TextareaField } from '#app/components/forms.tsx'
import { SelectField } from '#app/components/forms/select-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { StatusButton } from '#app/components/ui/status-button.tsx'
import { useHydrated } from '#app/components/ui/use-hydrated.ts'
import { useIsPending } from '#app/components/ui/use-is-pending.ts'
import type { PlaceResult } from '#app/domain/places/places.server.ts'
import {
  CreateProjectFormSchema,
  formatPlaceChoice,
  PROJECT_TYPES,
} from '#app/domain/projects/project-schemas.ts'
import { todayInSouthAfrica } from '#app/lib/format/dates.ts'
import { useState } from 'react'

import { MANUAL_ENTRY_MESSAGE, PlaceSearch } from './place-search.tsx'

export interface PlaceSearchResult {
  query: string
  results: PlaceResult[]
  message?: string
}

const FORM_FIELDS = [
  'name',
  'projectType',
  'deadline',
  'description',
  'requirements',
  'address',
  'latitude',
  'longitude',
] as const

export function CreateProjectTab({ placeSearch }: { placeSearch: PlaceSearchResult | null }) {
  const actionData = useActionData<{ intent?: string; result?: SubmissionResult<string[]> }>()
  const navigation = useNavigation()
  const [params] = useSearchParams()
  const hydrated = useHydrated()
  const pending = useIsPending({ intent: 'create-project' })
  const searching = useIsPending({ formMethod: 'GET', state: 'loading' })

  // What was typed before a no-JavaScript search comes back in the query string.
  const carried = Object.fromEntries(FORM_FIELDS.map((f) => [f, params.get(f) ?? '']))
  const [form, fields] = useForm({
    id: 'create-project-form',
    constraint: getZodConstraint(CreateProjectFormSchema),
    lastResult:
      actionData?.intent === 'create-project' && navigation.state === 'idle' ? actionData.result : null,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CreateProjectFormSchema }),
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    defaultValue: carried,
  })

  const [picked, setPicked] = useState<PlaceResult | null>(null)
  const [manualOpen, setManualOpen] = useState(false)
  const locationError = fields.address.errors ?? fields.latitude.errors ?? fields.longitude.errors
  const noResults = Boolean(placeSearch && placeSearch.results.length === 0)

  function pick(place: PlaceResult) {
    setPicked(place)
    form.update({ name: fields.address.name, value: place.address })
    form.update({ name: fields.latitude.name, value: String(place.lat) })
    form.update({ name: fields.longitude.name, value: String(place.lng) })
  }

  return (
    <section className="card p-6" aria-labelledby="create-heading">
      <h2 id="create-heading" className="text-lg font-semibold text-ink-950">
        Create Project
      </h2>
      <p className="mt-1 text-sm text-ink-500">
        Tell us about the site. Next you’ll draw the areas to survey on a satellite map and get an instant
        quote.
      </p>
      <Form method="post" action="/dashboard?tab=create" className="mt-6 space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="create-project" />
        <input type="hidden" name="tab" value="create" />
        {form.errors?.length ? <Alert id={form.errorId}>{form.errors.join(' ')}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            labelProps={{ children: 'Project name *' }}
            errors={fields.name.errors}
            inputProps={{
              ...getInputProps(fields.name, { type: 'text' }),
              placeholder: 'e.g. Vineyard blocks A–C',
            }}
          />
          <SelectField
            labelProps={{ children: 'Project type *' }}
            selectProps={getSelectProps(fields.projectType)}
            errors={fields.projectType.errors}
            options={PROJECT_TYPES}
            placeholder="Select a project type"
          />
        </div>

        <fieldset className="space-y-3 rounded-xl border border-ink-100 bg-ink-50/50 p-4">
          <legend className="px-1 text-sm font-medium text-ink-700">Flight location *</legend>
          <PlaceSearch
            initialQuery={placeSearch?.query ?? params.get('q') ?? ''}
            hydrated={hydrated}
            searching={Boolean(searching)}
            onPick={pick}
          />

          {placeSearch && placeSearch.results.length > 0 ? (
            <fieldset>
              <legend className="mb-1 text-sm text-ink-600">
                {placeSearch.results.length === 1 ? 'One match' : `${placeSearch.results.length} matches`} for
                ‘{placeSearch.query}’ — choose one:
              </legend>
              <ul
                className="divide-y divide-ink-100 overflow-hidden rounded-lg border border-ink-200 bg-white"
                data-testid="place-results"
              >
                {placeSearch.results.map((place, i) => (
                  <li key={`${place.lat},${place.lng},${i}`}>
                    <label className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm hover:bg-amber-50">
                      <input
                        type="radio"
                        name="placeChoice"
                        value={formatPlaceChoice(place)}
                        defaultChecked={i === 0}
                        className="mt-0.5 accent-amber-600"
                        onChange={() => pick(place)}
                      />
                      <span>
                        <span className="font-medium text-ink-900">{place.address}</span>
                        <span className="block text-xs text-ink-500" data-format="coordinates">
                          {`${place.lat.toFixed(5)}, ${place.lng.toFixed(5)}`}
                        </span>
                      </span>
                    </label>
                  </li>
                ))}
                <li>
                  <label className="flex cursor-pointer items-start gap-3 px-3 py-2 text-sm text-ink-600 hover:bg-amber-50">
                    <input
                      type="radio"
                      name="placeChoice"
                      value=""
                      className="mt-0.5 accent-amber-600"
                      onChange={() => setPicked(null)}
                    />
                    <span>None of these — I’ll enter the address and coordinates below</span>
                  </label>
                </li>
              </ul>
            </fieldset>
          ) : null}

          {noResults ? (
            <Alert tone="warning" title={MANUAL_ENTRY_MESSAGE}>
              {placeSearch?.message} Enter the site’s address and its coordinates below.
            </Alert>
          ) : null}

          {picked ? (
            <p
              className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
              role="status"
              data-testid="picked-location"
            >
              Selected: <strong>{picked.address}</strong> (
              <span data-format="coordinates">{`${picked.lat.toFixed(5)}, ${picked.lng.toFixed(5)}`}</span>)
            </p>
          ) : null}

          <details
            open={
              manualOpen || noResults || Boolean(locationError) || Boolean(carried.address) || !hydrated
                ? true
                : undefined
            }
            onToggle={(event) => setManualOpen((event.target as HTMLDetailsElement).open)}
            className="group"
          >
            <summary className="cursor-pointer text-sm font-medium text-ink-700 hover:text-ink-950">
              Address and coordinates
            </summary>
            <div className="mt-3 grid gap-3 sm:grid-cols-3">
              <Field
                className="sm:col-span-3"
                labelProps={{ children: 'Address' }}
                errors={fields.address.errors}
                inputProps={{
                  ...getInputProps(fields.address, { type: 'text' }),
                  placeholder: 'Farm name, road, town',
                }}
              />
              <CoordinateField label="Latitude" field={fields.latitude} example="-33.9321" />
              <CoordinateField label="Longitude" field={fields.longitude} example="18.8602" />
            </div>
          </details>
        </fieldset>

        <Field
          className="sm:max-w-xs"
          labelProps={{ children: 'Preferred deadline' }}
          errors={fields.deadline.errors}
          inputProps={{ ...getInputProps(fields.deadline, { type: 'date' }), min: todayInSouthAfrica() }}
        />
        <TextareaField
          labelProps={{ children: 'Description' }}
          errors={fields.description.errors}
          textareaProps={{
            ...getTextareaProps(fields.description),
            rows: 3,
            placeholder: 'What do you need surveyed, and why?',
          }}
        />
        <TextareaField
          labelProps={{ children: 'Special requirements' }}
          errors={fields.requirements.errors}
          textareaProps={{
            ...getTextareaProps(fields.requirements),
            rows: 2,
            placeholder: 'Deliverables, accuracy, access, timing…',
          }}
        />
        <ErrorList errors={[]} />
        <div className="flex justify-end">
          <StatusButton pending={pending} pendingLabel="Creating Project...">
            Continue to Flight Planning
          </StatusButton>
        </div>
      </Form>
    </section>
  )
}

/** A latitude or longitude typed by hand: decimal degrees, with an example under it. */
function CoordinateField({
  label,
  field,
  example,
}: {
  label: string
  field: FieldMetadata<unknown>
  example: string
}) {
  return (
    <Field
      labelProps={{ children: label }}
      errors={field.errors}
      hint={
        <>
          e.g. <span data-format="coordinates">{example}</span>
        </>
      }
      inputProps={{ ...getInputProps(field, { type: 'text' }), inputMode: 'decimal' }}
    />
  )
}
