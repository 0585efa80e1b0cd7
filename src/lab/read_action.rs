//! How a session file's action is read, in format 3 (today's [`Action`]), in
//! format 2, whose settings each had an action of their own (`{"set-naive":
//! {"on": true}}` is today's `{"set": {"naive": true}}`), or in format 1,
//! which had fewer actions and counted the consumer's moves (`advance`).
//!
//! Every format reads the action's name first, then hands it, with the rest,
//! to `Action`'s own reader: one reader of every action, whatever the format,
//! so an old file is told exactly the rule it breaks and where
//! (`actions[0].set-naive.on`), and the page carries that reader once.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, IntoDeserializer, MapAccess,
    VariantAccess, Visitor,
};
use serde::Deserialize;

use super::action::Action;
use crate::sim::Setting;

/// An action of format 3.
pub(super) struct Today(pub Action);

/// An action of format 2, converted to today's.
pub(super) struct Format2(pub Action);

/// An action of format 1 as today's, or `None` for the consumer's moves
/// (`advance`), which have no action now.
pub(super) struct Format1(pub Option<Action>);

impl<'de> Deserialize<'de> for Today {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Today, D::Error> {
        deserializer
            .deserialize_enum("Action", &[], ByName { format: 3 })
            .map(|action| Today(action.expect("format 3 reads every action")))
    }
}

impl<'de> Deserialize<'de> for Format2 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Format2, D::Error> {
        deserializer
            .deserialize_enum("ActionV2", &[], ByName { format: 2 })
            .map(|action| Format2(action.expect("format 2 reads every action")))
    }
}

impl<'de> Deserialize<'de> for Format1 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Format1, D::Error> {
        deserializer
            .deserialize_enum("ActionV1", &[], ByName { format: 1 })
            .map(Format1)
    }
}

/// Reads an action's name, then the action.
struct ByName {
    format: u32,
}

impl<'de> Visitor<'de> for ByName {
    type Value = Option<Action>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an action")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Option<Action>, A::Error> {
        let (name, variant): (String, A::Variant) = data.variant()?;
        match self.format {
            1 => action_v1(name, variant),
            2 => action_v2(name, variant).map(Some),
            _ => Action::deserialize(Named { name, variant }).map(Some),
        }
    }
}

/// An action of format 1: a few of today's, the pause as a setting, and the
/// consumer's counted moves.
fn action_v1<'de, A: VariantAccess<'de>>(
    name: String,
    variant: A,
) -> Result<Option<Action>, A::Error> {
    const NAMES: [&str; 8] = [
        "send",
        "retry-same",
        "retry-fresh",
        "burst",
        "stress",
        "set-paused",
        "advance",
        "check-balance",
    ];
    match name.as_str() {
        "advance" => field::<_, u32>(variant, "steps", "ActionV1::Advance").map(|_| None),
        "set-paused" => {
            let paused = field(variant, "paused", "ActionV1::SetPaused")?;
            Ok(Some(Action::Set(Setting::Paused(paused))))
        }
        known if NAMES.contains(&known) => Action::deserialize(Named { name, variant }).map(Some),
        _ => Err(de::Error::unknown_variant(&name, &NAMES)),
    }
}

/// An action of format 2: its settings by their old names, every other action
/// as today's of the same name. Format 2 had no `set`.
fn action_v2<'de, A: VariantAccess<'de>>(name: String, variant: A) -> Result<Action, A::Error> {
    let setting = match name.as_str() {
        "set" => return Err(de::Error::unknown_variant(&name, &[])),
        "set-paused" => Setting::Paused(field(variant, "paused", "ActionV2::SetPaused")?),
        "set-caller-timeout" => {
            Setting::CallerTimeoutMs(field(variant, "ms", "ActionV2::SetCallerTimeout")?)
        }
        "set-processing-time" => {
            Setting::ProcessingMs(field(variant, "ms", "ActionV2::SetProcessingTime")?)
        }
        "set-naive" => Setting::Naive(field(variant, "on", "ActionV2::SetNaive")?),
        "set-store" => Setting::Store(field(variant, "kind", "ActionV2::SetStore")?),
        "set-processes" => Setting::Processes(field(variant, "count", "ActionV2::SetProcesses")?),
        "set-routing" => Setting::Routing(field(variant, "routing", "ActionV2::SetRouting")?),
        "set-retention" => {
            Setting::RetentionHours(field(variant, "hours", "ActionV2::SetRetention")?)
        }
        "set-ledger-check" => {
            Setting::LedgerCheck(field(variant, "on", "ActionV2::SetLedgerCheck")?)
        }
        "set-in-flight" => Setting::InFlight(field(variant, "policy", "ActionV2::SetInFlight")?),
        "set-acknowledge" => {
            Setting::Acknowledge(field(variant, "when", "ActionV2::SetAcknowledge")?)
        }
        "set-auto-retry" => Setting::AutoRetry(field(variant, "policy", "ActionV2::SetAutoRetry")?),
        "set-email" => Setting::Email(field(variant, "on", "ActionV2::SetEmail")?),
        "set-email-via" => Setting::EmailVia(field(variant, "via", "ActionV2::SetEmailVia")?),
        _ => return Action::deserialize(Named { name, variant }),
    };
    Ok(Action::Set(setting))
}

/// A format-2 setting action's one field, as `{"on": true}`: other fields are
/// passed over, as format 2 did.
fn field<'de, A: VariantAccess<'de>, T: Deserialize<'de>>(
    variant: A,
    name: &'static str,
    action: &'static str,
) -> Result<T, A::Error> {
    variant.struct_variant(
        &[],
        OneField {
            name,
            action,
            value: PhantomData,
        },
    )
}

struct OneField<T> {
    name: &'static str,
    action: &'static str,
    value: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for OneField<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct variant {}", self.action)
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<T, M::Error> {
        let mut value = None;
        while let Some(key) = map.next_key::<String>()? {
            if key != self.name {
                map.next_value::<IgnoredAny>()?;
            } else if value.is_some() {
                return Err(de::Error::duplicate_field(self.name));
            } else {
                value = Some(map.next_value()?);
            }
        }
        value.ok_or_else(|| de::Error::missing_field(self.name))
    }
}

/// An enum whose variant's name was read already: hands the name and the rest
/// to a derived reader, as if it read them itself.
struct Named<A> {
    name: String,
    variant: A,
}

impl<'de, A: VariantAccess<'de>> EnumAccess<'de> for Named<A> {
    type Error = A::Error;
    type Variant = A;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, A), A::Error> {
        let name: de::value::StringDeserializer<A::Error> = self.name.into_deserializer();
        Ok((seed.deserialize(name)?, self.variant))
    }
}

impl<'de, A: VariantAccess<'de>> Deserializer<'de> for Named<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_enum(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
