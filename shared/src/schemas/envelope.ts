/** The success and error envelopes every JSON answer uses (spec "Conventions"). */
import { Type, type TSchema } from "@sinclair/typebox";
import { ERROR_CODES } from "../errors";

export const ErrorEnvelope = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Object({
      code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
      message: Type.String(),
    }),
  },
  { $id: "ErrorEnvelope", description: "Every failure: a code from the error catalog and a readable message." },
);

export const Ok = <T extends TSchema>(data: T) => Type.Object({ ok: Type.Literal(true), data });

/** A page of a list, newest first; pass `nextCursor` as `cursor` for the next one. Every paged answer is one. */
export const Page = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export interface OkBody<T> {
  ok: true;
  data: T;
}
