"""What people read: the wording of actions, the card drawing, the dispute dossier."""
