//! One name, one verdict: a definition hidden for what it is holds every other definition of
//! its name hidden for a while, whichever listing, session or identity's view showed it, so
//! that an upstream showing different definitions to different listings (a poisoned copy to
//! one, a clean one to another) gains nothing. The list path calls these between evaluating a
//! list and keeping it; re-decisions hold what they left ([`ToolState::hold_if_shadowed`]).

use super::*;

/// How long a hidden definition keeps another definition of the same name hidden: a server
/// that improves a poor tool waits this long; one that shows different definitions to
/// different listings gains nothing within it.
pub(super) const SPLIT_VIEW: std::time::Duration = std::time::Duration::from_secs(600);

/// How many lists' worth of hidden copies a view keeps from the others (see `others_forget`).
const CARRIED_PER_LIST: usize = 4;

impl UpstreamTools {
    /// One name, one verdict, the stricter: a definition hidden in this list (a duplicate name)
    /// hides every visible definition of the same name here, and one hidden for what it is
    /// that a list carried within [`SPLIT_VIEW`] under another hash (the upstream showed
    /// another session, or the gateway's own listing, a cleaner copy) keeps hiding it, in this
    /// list and in every re-decision after it ([`ToolState::hidden_copy`]). Otherwise what a
    /// client was shown hidden could be called through the copy shown elsewhere, and a list
    /// with `[bad x, good x]` would show one definition while the upstream runs whichever it
    /// likes.
    pub(super) fn one_verdict_per_name(&self, listed: &mut [Listed]) {
        let now = std::time::Instant::now();
        let held_here: std::collections::HashSet<String> = listed
            .iter()
            .filter(|l| !l.state.decision.visible && l.state.decision.hide_reason.is_some())
            .map(|l| l.name.clone())
            .collect();
        // The newest hidden copy of each name: in this list, else as the table remembers it.
        let mut copies: HashMap<String, (String, std::time::Instant)> = listed
            .iter()
            .filter(|l| l.state.hidden_on_its_own())
            .map(|l| (l.name.clone(), (l.state.hash(), now)))
            .collect();
        {
            let table = self.tools.lock();
            let carried = self.carried.lock();
            for l in listed.iter() {
                if copies.contains_key(&l.name) {
                    continue;
                }
                // (A hidden definition that is shown now, approved since, hides nothing.)
                let remembered = table.get(&l.name).and_then(ToolState::held_copy);
                // Another view's listing of a copy this view's policy hides, if newer.
                let from_others = carried.get(&l.name).filter(|(hash, _)| *hash != l.state.hash());
                let newest = match (remembered, from_others) {
                    (Some(own), Some(other)) if other.1 > own.1 => Some(other.clone()),
                    (Some(own), _) => Some(own),
                    (None, other) => other.cloned(),
                };
                if let Some(copy) = newest {
                    copies.insert(l.name.clone(), copy);
                }
            }
        }
        for l in listed.iter_mut() {
            if !l.state.hidden_on_its_own() {
                l.state.hidden_copy = copies.get(&l.name).cloned();
            }
            if l.state.decision.visible && held_here.contains(&l.name) {
                l.state.decision.visible = false;
                l.state.decision.hide_reason = Some(HideReason::SplitView);
            }
            l.state.hold_if_shadowed();
        }
    }

    /// The other views of this upstream forget what they remember of these names under another
    /// definition: a rug pull one identity's listing saw must not stay unseen by a view that
    /// listed before it. A call there to such a name then waits for a listing in its caller's
    /// context, as a call to a name never listed does. What the other view held hidden for
    /// what it is stays with it as a hidden copy ([`UpstreamTools::carried`]), and so does a
    /// definition listed here that its policy hides for what it is: the copy its own callers
    /// are shown later is held hidden as if it had listed both. An upstream that shows the
    /// poisoned copy to one identity and a clean one to another gains nothing, in either order.
    pub(super) fn others_forget(&self, listed: &[Listed]) {
        let Some(others) = self.other_views.get().filter(|o| !o.is_empty()) else { return };
        let now: HashMap<&str, String> = listed.iter().map(|l| (l.name.as_str(), l.state.hash())).collect();
        let seen_at = std::time::Instant::now();
        for other in others.iter().filter_map(std::sync::Weak::upgrade) {
            let mut copies: Vec<(String, (String, std::time::Instant))> = listed
                .iter()
                .filter(|l| hidden_for_itself(&decide_tool(&other.policy, &l.name, l.state.seen())))
                .map(|l| (l.name.clone(), (now[l.name.as_str()].clone(), seen_at)))
                .collect();
            let mut table = other.tools.lock();
            let before = table.len();
            table.retain(|name, s| {
                let keep = now.get(name.as_str()).is_none_or(|hash| *hash == s.hash());
                if let (false, Some(copy)) = (keep, s.held_copy()) {
                    copies.push((name.clone(), copy));
                }
                keep
            });
            let forgot = table.len() != before;
            if !copies.is_empty() {
                let mut carried = other.carried.lock();
                carried.retain(|_, (_, at)| at.elapsed() < SPLIT_VIEW);
                for (name, copy) in copies {
                    match carried.get_mut(&name) {
                        Some(held) if held.1 >= copy.1 => {}
                        Some(held) => *held = copy,
                        None => {
                            carried.insert(name, copy);
                        }
                    }
                }
                // An upstream listing new poisoned names without end grows this no further
                // than a few lists' worth: the copies seen longest ago go first.
                let cap = CARRIED_PER_LIST * other.max_list_tools.max(1);
                if carried.len() > cap {
                    let mut ages: Vec<std::time::Instant> = carried.values().map(|(_, at)| *at).collect();
                    let excess = carried.len() - cap;
                    let (_, oldest_kept, _) = ages.select_nth_unstable(excess);
                    let oldest_kept = *oldest_kept;
                    carried.retain(|_, (_, at)| *at >= oldest_kept);
                }
            }
            drop(table);
            if forgot {
                // Its remembered renderings would answer a repeat of its old list without
                // deciding (and so remembering) those names again.
                other.rendered.lock().clear();
            }
        }
    }
}
