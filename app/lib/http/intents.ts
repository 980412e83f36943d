/**
 * Forms on one page are told apart by a hidden `intent` field (docs/conventions.md, "UI"),
 * read through the page's intent schema: a discriminated union of one `z.literal` per form.
 */
import { z } from 'zod'

type IntentForm<T extends string> = z.ZodObject<{ intent: z.ZodLiteral<T> }>
type IntentSchema<T extends string> = z.ZodDiscriminatedUnion<'intent', [IntentForm<T>, ...IntentForm<T>[]]>

/** The page's intents as a form schema: `{ intent: z.literal(…) }` for each form. */
export function intentSchema<T extends string>(...intents: [T, ...T[]]): IntentSchema<T> {
  const forms = intents.map((intent) => z.object({ intent: z.literal(intent) })) as [
    IntentForm<T>,
    ...IntentForm<T>[],
  ]
  return z.discriminatedUnion('intent', forms)
}

/** The posted form's intent as the schema reads it; null when it is none of the page's. */
export function readIntent<T extends string>(formData: FormData, schema: IntentSchema<T>): T | null {
  const parsed = schema.safeParse({ intent: formData.get('intent') })
  // Each option is `{ intent: z.literal(T) }`: a parsed form's intent is a T.
  return parsed.success ? (parsed.data.intent as T) : null
}
