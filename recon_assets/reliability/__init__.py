"""Edge reliability: recency decay, the weighted score, lifecycle labels and the reason string."""
