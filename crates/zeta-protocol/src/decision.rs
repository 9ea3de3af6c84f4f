//! What was decided about a tool call and by whom, as the audit stores it: the typed
//! `CallDecision` and `Decider`, each with the one text the database and the UI use, and
//! how a call that started ended (`CallState`).

/// What was decided about a call: the audit's `decision` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallDecision {
    /// The policy let it run.
    Allowed,
    /// It was a step of a plan the user approved.
    PlanApproved,
    /// The user was asked and said yes.
    AskedApproved,
    /// An allowance the user gave ("Allow for this task", "Always allow") covered it.
    UserAllowed,
    /// The user was asked and said no (or nobody answered).
    AskedDenied,
    /// The permission settings refuse it.
    Denied,
    /// It never runs (`policy::shell`).
    Blocked,
    /// No such tool, or arguments that do not fit its schema.
    Invalid,
    RateLimited,
    /// A step of an approved plan the user chose not to run.
    Skipped,
}

impl CallDecision {
    /// Every decision, in the order the audit lists them.
    pub const ALL: [CallDecision; 10] = [
        CallDecision::Allowed,
        CallDecision::PlanApproved,
        CallDecision::AskedApproved,
        CallDecision::UserAllowed,
        CallDecision::AskedDenied,
        CallDecision::Denied,
        CallDecision::Blocked,
        CallDecision::Invalid,
        CallDecision::RateLimited,
        CallDecision::Skipped,
    ];

    /// The text stored in the database and shown in the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            CallDecision::Allowed => "allowed",
            CallDecision::PlanApproved => "plan-approved",
            CallDecision::AskedApproved => "asked-approved",
            CallDecision::UserAllowed => "user-allowed",
            CallDecision::AskedDenied => "asked-denied",
            CallDecision::Denied => "denied",
            CallDecision::Blocked => "blocked",
            CallDecision::Invalid => "invalid",
            CallDecision::RateLimited => "rate-limited",
            CallDecision::Skipped => "user-skipped",
        }
    }

    /// The decision a stored text stands for.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.as_str() == text)
    }

    /// The call was refused: by the user, the settings, the blocklist or a rate limit.
    pub fn refused(self) -> bool {
        matches!(
            self,
            CallDecision::AskedDenied
                | CallDecision::Denied
                | CallDecision::Blocked
                | CallDecision::RateLimited
        )
    }

    /// The stored texts of the decisions `pick` selects, as an SQL list: `'a', 'b'`.
    pub fn sql_list(pick: impl Fn(CallDecision) -> bool) -> String {
        let texts: Vec<String> = Self::ALL
            .into_iter()
            .filter(|d| pick(*d))
            .map(|d| format!("'{}'", d.as_str()))
            .collect();
        texts.join(", ")
    }

    /// The call was cleared to run.
    pub fn lets_run(self) -> bool {
        matches!(
            self,
            CallDecision::Allowed
                | CallDecision::PlanApproved
                | CallDecision::AskedApproved
                | CallDecision::UserAllowed
        )
    }
}

/// Who decided: the audit's `decided_by` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decider {
    /// The permission policy (mode and per-tool settings).
    Policy,
    User,
    /// Nobody answered in time.
    Timeout,
    /// The task was cancelled while asking.
    Cancel,
    /// Nobody could be asked (the approval channel closed).
    Nobody,
    Blocklist,
    Validator,
    RateLimit,
}

impl Decider {
    /// The text stored in the database and shown in the UI.
    pub fn as_str(self) -> &'static str {
        match self {
            Decider::Policy => "policy",
            Decider::User => "user",
            Decider::Timeout => "timeout",
            Decider::Cancel => "cancel",
            Decider::Nobody => "nobody",
            Decider::Blocklist => "blocklist",
            Decider::Validator => "validator",
            Decider::RateLimit => "rate-limit",
        }
    }
}

/// How a call that started ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallState {
    Finished,
    /// Cut short by a cancel or a stop: it may have partly run.
    Interrupted,
}

impl CallState {
    pub fn as_str(self) -> &'static str {
        match self {
            CallState::Finished => "finished",
            CallState::Interrupted => "interrupted",
        }
    }
}
