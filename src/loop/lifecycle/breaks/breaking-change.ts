/** A breaking change between two versions that reaches operations a client calls. */
export interface BreakingChange {
  /** The change in plain words (`toClientWords`). */
  text: string;
  /** The diff rule, e.g. `response-property-removed`. */
  rule: string;
  /** Whether the change is to what the client sends or to what it receives. */
  direction: 'request' | 'response';
  /** The called operations it reaches, as usage names them: `GET /users/{id}`, without prefix or version. */
  operations: string[];
  /** The migration guide's entry for it: behaviour before and after, Markdown code spans kept. */
  guide: { oldBehaviour: string; newBehaviour: string };
}
